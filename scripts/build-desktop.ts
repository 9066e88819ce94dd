import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

/**
 * Bundles the Electron main process and the preload into dist/electron.
 * The preload runs sandboxed, where only `electron` can be required: it is
 * bundled whole, as CommonJS. The main process keeps node_modules external
 * (better-sqlite3 is native; fastify and pino load files at run time).
 */
export async function buildDesktop(
  outDir = fileURLToPath(new URL('../dist/electron', import.meta.url)),
): Promise<void> {
  const common = { bundle: true, platform: 'node', target: 'node22', sourcemap: true, logLevel: 'warning' } as const;
  await build({
    ...common,
    entryPoints: [fileURLToPath(new URL('../src-main/electron/main.ts', import.meta.url))],
    outfile: `${outDir}/main.js`,
    format: 'esm',
    packages: 'external',
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
