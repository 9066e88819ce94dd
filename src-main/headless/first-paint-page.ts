import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { Log } from '../common/file-log.js';
import type { AppCore } from '../core/app-core.js';

/** Where the UI's build puts the page's server entry (scripts/build-ui.ts), inside the UI's folder. */
export const FIRST_PAINT_DIR = '.first-paint';
// .mjs: an ES module wherever the UI's folder is (no package.json with "type" around it)
export const FIRST_PAINT_FILE = 'first-paint.mjs';

/** What src-renderer/first-paint.tsx exports, checked when it is loaded. */
const FirstPaintModuleSchema = z.object({
  firstPaintRequests: z.array(z.object({ name: z.string(), request: z.unknown() })).readonly(),
  renderFirstPaint: z.custom<
    (answers: readonly unknown[], page: string, languages?: readonly string[]) => string | null
  >((value) => typeof value === 'function'),
});
export type FirstPaint = z.infer<typeof FirstPaintModuleSchema>;

/**
 * The built UI's first-paint entry, or undefined when this build has none
 * (built with plain `vite build`) or it does not load: the page is then
 * served as built, and the app paints once its bundle has run.
 */
export async function loadFirstPaint(uiDir: string, log?: Log): Promise<FirstPaint | undefined> {
  const path = join(uiDir, FIRST_PAINT_DIR, FIRST_PAINT_FILE);
  if (!existsSync(path)) return undefined;
  try {
    return FirstPaintModuleSchema.parse(await import(pathToFileURL(path).href));
  } catch (error) {
    log?.error(`The page's first paint could not be loaded from ${path}; the page is served without it.`, error);
    return undefined;
  }
}

/**
 * The page with the Queue drawn into its root from the core's answers, or
 * the page as it is when there is nothing to draw (no account, a read that
 * failed) or the drawing fails: a page without its first paint still works.
 * `acceptLanguage` is the request's header: the picture is in the first of
 * its languages that has a catalog, unless the core's setting names one.
 */
export async function withFirstPaint(
  page: string,
  firstPaint: FirstPaint,
  core: Pick<AppCore, 'handle'>,
  log?: Log,
  acceptLanguage?: string,
): Promise<string> {
  try {
    const results = await Promise.all(
      firstPaint.firstPaintRequests.map((read) => core.handle(read.name, read.request)),
    );
    const answers = results.map((result) => (result.ok ? result.value : undefined));
    if (answers.includes(undefined)) return page;
    return firstPaint.renderFirstPaint(answers, page, acceptedLanguages(acceptLanguage)) ?? page;
  } catch (error) {
    log?.error('The page could not be drawn ahead of the app; it is served without its first paint.', error);
    return page;
  }
}

/**
 * The language tags of an Accept-Language header, best first ("de-CH,
 * de;q=0.9, en;q=0.8" → de-CH, de, en): without the wildcard and what is
 * refused (q=0); equal weights keep their order.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
      return { tag: tag.trim(), weight: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ tag, weight }) => /^[a-z]{1,8}(-[a-z\d]{1,8})*$/i.test(tag) && weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map(({ tag }) => tag);
}

/** The style sheet's link as Vite writes it into the page's head. */
const STYLE_SHEET = /<link rel="stylesheet" crossorigin href="\.\/(assets\/[\w.-]+\.css)">/;

/**
 * A page with its picture drawn, with the style sheet in the page rather than
 * linked: the picture waits for its styles before its first frame, and a
 * fetch of their own cost that frame ~140 ms here when nothing was cached
 * (`npm run bench -- queue-render`: 395 → 256 ms median). The
 * answer names the style's hash for the page's Content-Security-Policy,
 * which allows no other inline style.
 */
export async function inlineStyleSheet(
  page: string,
  readAsset: (path: string) => Promise<string | null>,
): Promise<{ page: string; styleHash: string | null }> {
  const link = STYLE_SHEET.exec(page);
  const css = link ? await readAsset(link[1]!) : null;
  if (!link || css === null || css.includes('</')) return { page, styleHash: null };
  const styleHash = `sha256-${createHash('sha256').update(css).digest('base64')}`;
  return { page: page.replace(link[0], () => `<style>${css}</style>`), styleHash };
}
