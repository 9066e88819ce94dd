// `node --import tsx --import <this file> main.js`: runs the bundled desktop main process on the
// fake Electron. ESM imports of `electron` go through the resolve hook; CommonJS requires
// (electron-updater inside node_modules) get the same instance, which the fake module
// publishes on globalThis when it loads.
import Module, { register } from 'node:module';

const fakeUrl = new URL('./electron-module.ts', import.meta.url).href;
register('./hooks.mjs', import.meta.url, { data: { fakeUrl } });

const FAKE = Symbol.for('media-sync.fake-electron');
const load = Module._load;
Module._load = function loadWithFakeElectron(request, ...rest) {
  if (request !== 'electron') return load.call(this, request, ...rest);
  if (!globalThis[FAKE]) throw new Error('require("electron") before the fake Electron module was imported');
  return globalThis[FAKE];
};
