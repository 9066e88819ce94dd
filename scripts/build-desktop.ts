import { build } from 'esbuild';
import { cp } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * Bundles the Electron main process and the preload into dist/electron.
 * The preload runs sandboxed, where only `electron` can be required: it is
 * bundled whole, as CommonJS. The main process keeps node_modules external
 * (better-sqlite3 is native; fastify and pino load files at run time), so
 * they must be production dependencies: electron-builder packs only those.
 * The reference server (the "try it locally" demo) is bundled into a chunk
 * beside main.js, imported only when the demo server starts (so fastify is
 * not loaded at every start), and its player page reads `./assets/*` beside
 * the module that asks: those files are copied next to main.js.
 */
export async function buildDesktop(
  outDir = fileURLToPath(new URL('../dist/electron', import.meta.url)),
): Promise<void> {
  const common = { bundle: true, platform: 'node', target: 'node22', sourcemap: true, logLevel: 'warning' } as const;
  await build({
    ...common,
    entryPoints: { main: fileURLToPath(new URL('../src-main/electron/main.ts', import.meta.url)) },
    outdir: outDir,
    format: 'esm',
    packages: 'external',
    // the demo server (and fastify with it) in a chunk of its own, loaded only when it starts
    splitting: true,
  });
  await cp(fileURLToPath(new URL('../src-server/file-host/assets', import.meta.url)), `${outDir}/assets`, {
    recursive: true,
  });
  await build({
    ...common,
    entryPoints: [fileURLToPath(new URL('../src-main/electron/preload.ts', import.meta.url))],
    outfile: `${outDir}/preload.cjs`,
    format: 'cjs',
    external: ['electron'],
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildDesktop();
