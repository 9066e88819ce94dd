// Module resolution hooks (node:module `register`): `electron` is the fake Electron module.
let fakeUrl;

export function initialize(data) {
  fakeUrl = data.fakeUrl;
}

export async function resolve(specifier, context, nextResolve) {
  // through the next resolver (tsx's), which marks the .ts file as one it compiles
  if (specifier === 'electron') return nextResolve(fakeUrl, context);
  return nextResolve(specifier, context);
}
