import { build } from 'vite';
import { fileURLToPath } from 'node:url';

/** The daemon serves dist/renderer: build it once before the browser tests, as `npm run serve` does. */
export async function setup(): Promise<void> {
  await build({ configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)), logLevel: 'warn' });
}
