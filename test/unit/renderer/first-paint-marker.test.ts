import { describe, expect, it } from 'vitest';
import {
  deferAppScript,
  dropMismatchedFirstPaint,
  FIRST_PAINT_CLASS,
  startAppAfterFirstPaint,
} from '../../../src-renderer/model/first-paint-marker.js';

/** The little of a Document the function uses: one picture for account a1 in `language`, and the page's parse state. */
function page(readyState: DocumentReadyState = 'complete', language: string | undefined = 'en') {
  const dataset: Record<string, string> = { account: 'a1' };
  if (language !== undefined) dataset['language'] = language;
  const picture = { dataset, removed: false, remove: () => (picture.removed = true) };
  const listeners: Array<() => void> = [];
  const doc = {
    readyState,
    querySelector: (selector: string) => (selector === `.${FIRST_PAINT_CLASS}` ? picture : null),
    addEventListener: (type: string, listener: () => void) => type === 'DOMContentLoaded' && listeners.push(listener),
  };
  return { doc: doc as unknown as Document, picture, parsed: () => listeners.forEach((listener) => listener()) };
}

describe("the daemon's picture of the Queue", () => {
  it('stays when the window opens on the Queue of the account it shows', () => {
    for (const [hash, selected] of [
      ['', null],
      ['#/queue', 'a1'],
    ] as const) {
      const { doc, picture } = page();
      dropMismatchedFirstPaint(doc, hash, selected, 'en');
      expect(picture.removed, `${hash} ${selected}`).toBe(false);
    }
  });

  it('goes when the window opens on another view or another account, as soon as the page is parsed', () => {
    for (const [hash, selected] of [
      ['#/files', null],
      ['#/settings', 'a1'],
      ['', 'a2'],
    ] as const) {
      const { doc, picture } = page();
      dropMismatchedFirstPaint(doc, hash, selected, 'en');
      expect(picture.removed, `${hash} ${selected}`).toBe(true);
    }
    const loading = page('loading');
    dropMismatchedFirstPaint(loading.doc, '#/files', null, 'en');
    expect(loading.picture.removed).toBe(false);
    loading.parsed();
    expect(loading.picture.removed).toBe(true);
  });
});

describe("the picture's language", () => {
  it('stays when the page resolves to the language the daemon drew it in', () => {
    for (const language of ['en', 'de']) {
      const { doc, picture } = page('complete', language);
      dropMismatchedFirstPaint(doc, '', null, language);
      expect(picture.removed, language).toBe(false);
    }
  });

  it('goes when this browser keeps another language than the core (localStorage), or the picture names none', () => {
    const german = page('complete', 'de');
    dropMismatchedFirstPaint(german.doc, '', null, 'en');
    expect(german.picture.removed).toBe(true);
    const english = page('complete', 'en');
    dropMismatchedFirstPaint(english.doc, '#/queue', 'a1', 'de');
    expect(english.picture.removed).toBe(true);
    // a daemon from before the catalogs drew in English and said nothing
    const unnamed = page('complete', undefined);
    dropMismatchedFirstPaint(unnamed.doc, '', null, 'de');
    expect(unnamed.picture.removed).toBe(true);
    const unnamedEnglish = page('complete', undefined);
    dropMismatchedFirstPaint(unnamedEnglish.doc, '', null, 'en');
    expect(unnamedEnglish.picture.removed).toBe(false);
  });
});

describe("the app's script under the picture", () => {
  const built =
    '<head><script type="module" crossorigin src="./assets/index-A1.js"></script>' +
    '<link rel="modulepreload" crossorigin href="./assets/chunk-B2.js"><link rel="stylesheet" href="./a.css"></head>';

  it('is named in the head instead of loaded by it, with nothing preloaded', () => {
    expect(deferAppScript(built)).toBe(
      '<head><meta name="media-sync:app-script" content="./assets/index-A1.js"><link rel="stylesheet" href="./a.css"></head>',
    );
    // a page without Vite's entry tag (another build) is left as it is, and still loads its app
    expect(deferAppScript('<head></head>')).toBe('<head></head>');
  });

  it('starts after the first frame, or at once in a hidden tab', async () => {
    for (const visibilityState of ['visible', 'hidden'] as const) {
      const appended: Array<{ type: string; src: string; crossOrigin: string }> = [];
      const doc = {
        visibilityState,
        querySelector: () => ({ content: './assets/index-A1.js' }),
        createElement: () => ({ type: '', src: '', crossOrigin: 'unset' }),
        head: { append: (script: (typeof appended)[number]) => appended.push(script) },
      } as unknown as Document;
      const frames: Array<() => void> = [];
      startAppAfterFirstPaint(doc, (next) => frames.push(next));
      if (visibilityState === 'visible') {
        expect(appended).toEqual([]);
        frames.forEach((frame) => frame());
        await new Promise((next) => setTimeout(next));
      } else {
        expect(frames).toEqual([]);
      }
      expect(appended, visibilityState).toEqual([{ type: 'module', src: './assets/index-A1.js', crossOrigin: '' }]);
    }
  });
});
