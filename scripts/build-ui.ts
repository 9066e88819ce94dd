import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const CONFIG = fileURLToPath(new URL('../vite.config.ts', import.meta.url));
const OUT_DIR = fileURLToPath(new URL('../dist/renderer', import.meta.url));

/** Builds the UI into `outDir` (dist/renderer by default): the page and its assets, as Electron and the daemon load them. */
export async function buildUi(outDir = OUT_DIR): Promise<void> {
  await build({ configFile: CONFIG, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
}

/**
 * The script the page loads before its first view, in minified bytes: the
 * main chunk (index.html's module script) and, with it, the chunks the page
 * preloads beside it. The other views, German and zod are not in it.
 */
export async function firstViewScript(outDir = OUT_DIR): Promise<{ mainChunk: number; withPreloads: number }> {
  const html = await readFile(join(outDir, 'index.html'), 'utf8');
  const sizeOf = async (path: string) => (await stat(join(outDir, path))).size;
  const main = /<script type="module"[^>]* src="\.\/([^"]+)"/.exec(html)?.[1];
  if (!main) throw new Error(`no module script in ${outDir}/index.html`);
  const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]* href="\.\/([^"]+)"/g)].map((match) => match[1]!);
  const mainChunk = await sizeOf(main);
  const preloaded = await Promise.all(preloads.map(sizeOf));
  return { mainChunk, withPreloads: preloaded.reduce((sum, bytes) => sum + bytes, mainChunk) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildUi();
  const { mainChunk, withPreloads } = await firstViewScript();
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  console.log(`UI built: main chunk ${kb(mainChunk)}, first view's script ${kb(withPreloads)} (minified)`);
}
