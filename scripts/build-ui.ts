import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { FIRST_PAINT_DIR, FIRST_PAINT_FILE } from '../src-main/headless/first-paint-page.js';

const CONFIG = fileURLToPath(new URL('../vite.config.ts', import.meta.url));
const FIRST_PAINT_ENTRY = fileURLToPath(new URL('../src-renderer/first-paint.tsx', import.meta.url));

/**
 * Builds the UI into `outDir` (dist/renderer by default): the page and its
 * assets, as Electron and the daemon load them, and in `outDir/.first-paint`
 * the server entry that the headless daemon runs to put the Queue's first
 * rows in the page's HTML (src-renderer/first-paint.tsx). That entry is
 * bundled whole (React's server renderer included), so the daemon needs
 * nothing from node_modules for it; the daemon never serves dot-folders.
 */
export async function buildUi(outDir = fileURLToPath(new URL('../dist/renderer', import.meta.url))): Promise<void> {
  await build({ configFile: CONFIG, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  await build({
    configFile: CONFIG,
    logLevel: 'warn',
    build: {
      ssr: FIRST_PAINT_ENTRY,
      outDir: join(outDir, FIRST_PAINT_DIR),
      emptyOutDir: false,
      copyPublicDir: false,
      // one file: the views the window loads lazily are never drawn on the server
      rollupOptions: { output: { codeSplitting: false, entryFileNames: FIRST_PAINT_FILE } },
    },
    ssr: { noExternal: true },
    // React's production server renderer, whatever NODE_ENV the daemon runs with
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildUi();
