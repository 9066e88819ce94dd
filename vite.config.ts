import react from '@vitejs/plugin-react';
import { build as esbuild } from 'esbuild';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const EARLY_CONNECT = fileURLToPath(new URL('./src-renderer/early-connect.ts', import.meta.url));

/**
 * The page's first script (src-renderer/early-connect.ts), bundled on its own
 * into one file of about a kilobyte and put in the head as an async
 * module: it runs as soon as it arrives, while the app's bundle still loads.
 * Built apart from the app so that it shares no chunk with it (a second
 * entry of the app's build would split the modules they share into chunks
 * of their own, each one more request before the app can start).
 */
function earlyConnectScript(): Plugin {
  let fileName = '';
  let source = '';
  return {
    name: 'media-sync:early-connect',
    apply: 'build',
    // the page's script: not part of the daemon's first-paint entry (scripts/build-ui.ts)
    applyToEnvironment: (environment) => environment.name === 'client',
    async buildStart() {
      const built = await esbuild({
        entryPoints: [EARLY_CONNECT],
        bundle: true,
        format: 'esm',
        minify: true,
        target: 'es2022',
        write: false,
      });
      source = built.outputFiles[0]!.text;
      fileName = `assets/early-connect-${createHash('sha256').update(source).digest('hex').slice(0, 8)}.js`;
      this.addWatchFile(EARLY_CONNECT);
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName, source });
    },
    transformIndexHtml: {
      order: 'post',
      handler: () => [
        { tag: 'script', attrs: { type: 'module', async: true, src: `./${fileName}` }, injectTo: 'head' },
      ],
    },
  };
}

/**
 * The renderer (src-renderer) builds to dist/renderer, loaded by Electron
 * from file:// and served by the headless daemon: relative asset paths work
 * for both. No inline scripts, so the pages' CSP needs no 'unsafe-inline'.
 */
export default defineConfig({
  root: fileURLToPath(new URL('./src-renderer', import.meta.url)),
  base: './',
  plugins: [react(), earlyConnectScript()],
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1024,
  },
});
