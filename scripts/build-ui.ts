import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const CONFIG = fileURLToPath(new URL('../vite.config.ts', import.meta.url));

/** Builds the UI into `outDir` (dist/renderer by default): the page and its assets, as Electron and the daemon load them. */
export async function buildUi(outDir = fileURLToPath(new URL('../dist/renderer', import.meta.url))): Promise<void> {
  await build({ configFile: CONFIG, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildUi();
