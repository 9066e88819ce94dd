import { describe, expect, it } from 'vitest';
import {
  deferAppScript,
  dropMismatchedFirstPaint,
  FIRST_PAINT_CLASS,
  startAppAfterFirstPaint,
} from '../../../src-renderer/model/first-paint-marker.js';

/** The little of a Document the function uses: one picture for account a1, and the page's parse state. */
function page(readyState: DocumentReadyState = 'complete') {
  const picture = { dataset: { account: 'a1' }, removed: false, remove: () => (picture.removed = true) };
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
      dropMismatchedFirstPaint(doc, hash, selected);
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
      dropMismatchedFirstPaint(doc, hash, selected);
      expect(picture.removed, `${hash} ${selected}`).toBe(true);
    }
    // the daemon draws in English: a page in German goes without the picture
    const german = page();
    dropMismatchedFirstPaint(german.doc, '', null, 'de');
    expect(german.picture.removed).toBe(true);
    const english = page();
    dropMismatchedFirstPaint(english.doc, '', null, 'en');
    expect(english.picture.removed).toBe(false);
    const loading = page('loading');
    dropMismatchedFirstPaint(loading.doc, '#/files', null);
    expect(loading.picture.removed).toBe(false);
    loading.parsed();
    expect(loading.picture.removed).toBe(true);
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
