import { describe, expect, it } from 'vitest';
import { dropMismatchedFirstPaint, FIRST_PAINT_CLASS } from '../../../src-renderer/model/first-paint-marker.js';

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
