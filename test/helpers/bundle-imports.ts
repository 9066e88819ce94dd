/** The packages a bundle built by esbuild imports at run time (not node:*, not electron), by package name. */
export function packagesImportedBy(bundle: string): Set<string> {
  return new Set(
    [...bundle.matchAll(/(?:from|import\() ?"([^".][^"]*)"/g)]
      .map(([, specifier]) => specifier!)
      .filter((specifier) => !specifier.startsWith('node:') && specifier !== 'electron')
      .map((specifier) =>
        specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/'),
      ),
  );
}
