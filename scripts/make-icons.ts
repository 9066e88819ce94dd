import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { TRAY_KINDS } from '../src-main/electron/tray-menu.js';
import { launchChromium } from '../test/helpers/browser.js';

/**
 * Rasterizes the SVG sources in assets/ into the PNGs the desktop app and
 * electron-builder need: Electron's nativeImage cannot read SVG, and
 * electron-builder converts one large PNG into .icns/.ico/Linux sizes.
 * The PNGs are committed; run this (`npm run make-icons`) after changing an
 * SVG. It needs Chromium (Debian's `chromium`, or CHROMIUM_PATH).
 *
 *   assets/icon.svg              -> assets/icon.png (1024x1024)
 *   assets/tray/tray-<state>.svg -> tray-<state>.png (16x16), tray-<state>@2x.png (32x32)
 */
export const APP_ICON_SIZE = 1024;
export const TRAY_ICON_SIZE = 16;

export interface IconJob {
  source: string;
  output: string;
  size: number;
}

/** Every PNG to produce, relative to the assets folder. */
export function iconJobs(): IconJob[] {
  return [
    { source: 'icon.svg', output: 'icon.png', size: APP_ICON_SIZE },
    ...TRAY_KINDS.flatMap((kind) => [
      { source: `tray/tray-${kind}.svg`, output: `tray/tray-${kind}.png`, size: TRAY_ICON_SIZE },
      { source: `tray/tray-${kind}.svg`, output: `tray/tray-${kind}@2x.png`, size: TRAY_ICON_SIZE * 2 },
    ]),
  ];
}

async function rasterize(page: Page, svg: string, size: number): Promise<Buffer> {
  await page.setViewportSize({ width: size, height: size });
  // an <img> scales the SVG to its box whatever width/height the source declares
  const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  await page.setContent(
    `<!doctype html><style>html,body{margin:0;background:transparent}img{display:block}</style>` +
      `<img src="${src}" width="${size}" height="${size}">`,
  );
  await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
  return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
}

export async function makeIcons(assetsDir = fileURLToPath(new URL('../assets/', import.meta.url))): Promise<string[]> {
  // headless Debian Chromium with the flags these machines need (docs/ARCHITECTURE.md, Tests)
  const browser = await launchChromium();
  const written: string[] = [];
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    for (const job of iconJobs()) {
      const svg = await readFile(`${assetsDir}/${job.source}`, 'utf8');
      await writeFile(`${assetsDir}/${job.output}`, await rasterize(page, svg, job.size));
      written.push(job.output);
    }
  } finally {
    await browser.close();
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const output of await makeIcons()) console.log(`assets/${output}`);
}
