import { describe, expect, it } from 'vitest';
import { i18n } from '../../../../src-renderer/i18n/i18n.js';
import {
  MAX_URLS_PER_PASTE,
  URLS_PER_REQUEST,
  appendLinks,
  batches,
  describeImportLines,
  parseImportLines,
} from '../../../../src-renderer/text/import-lines.js';

describe('import line validation', () => {
  it('takes http and https links, one per line, and names the line of each bad one', () => {
    const parsed = parseImportLines(
      ['https://cdn.example.com/a.mp4', 'ftp://files.example.com/b.mp4', '', 'http://example.org/c.webm'].join('\n'),
    );
    expect(parsed.urls).toEqual(['https://cdn.example.com/a.mp4', 'http://example.org/c.webm']);
    expect(parsed.errors).toEqual(['Line 2: uses ftp; only http and https links can be imported.']);
    expect(parsed.lines.map((line) => [line.kind, line.lineNumber])).toEqual([
      ['url', 1],
      ['invalid', 2],
      ['url', 4],
    ]);
  });

  const errorsOf = (line: string) => parseImportLines(line).errors;

  it('refuses a user name or password in the link, even an empty or encoded one', () => {
    for (const url of [
      'https://user:secret@example.com/v.mp4',
      'https://user@example.com/v.mp4',
      'https://:pw@example.com/v.mp4',
      'http://a%40b:c@example.com/v.mp4',
    ]) {
      expect(errorsOf(url), url).toEqual(['Line 1: contains a user name or password; remove them from the link.']);
    }
    // an @ after the host is part of the path, not credentials
    expect(parseImportLines('https://example.com/videos/@channel/v.mp4').urls).toHaveLength(1);
  });

  it('explains text that is not a link and schemes other than http(s)', () => {
    expect(errorsOf('holiday.mp4')).toEqual(['Line 1: is not a web address (it should start with https://).']);
    expect(errorsOf('javascript:alert(1)')).toEqual([
      'Line 1: uses javascript; only http and https links can be imported.',
    ]);
    expect(errorsOf('file:///home/me/v.mp4')).toEqual([
      'Line 1: uses file; only http and https links can be imported.',
    ]);
    expect(errorsOf(`https://example.com/${'a'.repeat(2100)}`)).toEqual(['Line 1: is longer than 2048 characters.']);
  });

  it('skips blank lines and counts a repeated link once, keeping the line numbers of the box', () => {
    const parsed = parseImportLines(
      '\n  https://a.example/v.mp4  \r\n\nhttps://a.example/v.mp4\nhttps://b.example/v.mp4\n\n',
    );
    expect(parsed.urls).toEqual(['https://a.example/v.mp4', 'https://b.example/v.mp4']);
    expect(parsed.errors).toEqual([]);
    expect(parsed.lines).toEqual([
      { kind: 'url', lineNumber: 2, url: 'https://a.example/v.mp4' },
      { kind: 'duplicate', lineNumber: 4, url: 'https://a.example/v.mp4', firstLine: 2 },
      { kind: 'url', lineNumber: 5, url: 'https://b.example/v.mp4' },
    ]);
    expect(describeImportLines(parsed)).toBe('2 links ready to import, 1 repeated link counted once');
  });

  it('flags links past the limit of one paste instead of dropping them silently', () => {
    const text = Array.from({ length: 4 }, (_, i) => `https://example.com/${i}.mp4`).join('\n');
    const parsed = parseImportLines(text, undefined, 3);
    expect(parsed.urls).toHaveLength(3);
    expect(parsed.errors).toEqual(['Line 4: is one link too many; send at most 3 at a time.']);
    expect(describeImportLines(parsed)).toBe('3 links ready to import, 1 line needs fixing');
    expect(MAX_URLS_PER_PASTE).toBe(500);
  });

  it('holds a link the service refused as a line to fix, with its reason, until the line changes', () => {
    const refused = new Map([['http://192.168.1.20/a.mp4', 'This URL is not allowed: a private address.']]);
    const parsed = parseImportLines('https://a.example/v.mp4\nhttp://192.168.1.20/a.mp4', refused);
    expect(parsed.urls).toEqual(['https://a.example/v.mp4']);
    expect(parsed.errors).toEqual(['Line 2: the service refused it: This URL is not allowed: a private address.']);
    expect(describeImportLines(parsed)).toBe('1 link ready to import, 1 line needs fixing');
    expect(parseImportLines('http://192.168.1.20/b.mp4', refused).errors).toEqual([]);
  });

  it('an empty box has nothing to send', () => {
    expect(parseImportLines('  \n\n')).toEqual({ lines: [], urls: [], errors: [] });
  });

  it('sends long pastes in batches of at most 50 links, in order', () => {
    const urls = Array.from({ length: 120 }, (_, i) => `https://example.com/${i}.mp4`);
    const sent = batches(urls);
    expect(URLS_PER_REQUEST).toBe(50);
    expect(sent.map((batch) => batch.length)).toEqual([50, 50, 20]);
    expect(sent.flat()).toEqual(urls);
    expect(batches([])).toEqual([]);
  });

  it('puts links opened from outside after what the box holds, each on its own line and only once', () => {
    expect(appendLinks('', ['https://a.example/v.mp4'])).toBe('https://a.example/v.mp4');
    expect(appendLinks('https://a.example/v.mp4\n\n', ['https://b.example/v.mp4', 'https://b.example/v.mp4'])).toBe(
      'https://a.example/v.mp4\nhttps://b.example/v.mp4',
    );
    expect(appendLinks('typing… https://x', ['https://a.example/v.mp4'])).toBe(
      'typing… https://x\nhttps://a.example/v.mp4',
    );
    expect(appendLinks('  https://a.example/v.mp4  ', ['https://a.example/v.mp4'])).toBe('  https://a.example/v.mp4  ');
  });

  it('names the lines and sums up the box in the UI’s language, with its plural forms', async () => {
    await i18n.changeLanguage('de');
    try {
      const parsed = parseImportLines(
        [
          'https://a.example/v.mp4',
          'https://a.example/v.mp4',
          'https://b.example/v.mp4',
          'https://c.example/v.mp4',
        ].join('\n'),
        undefined,
        1,
      );
      expect(parsed.errors).toEqual([
        'Zeile 3: ist ein Link zu viel; senden Sie höchstens 1 auf einmal.',
        'Zeile 4: ist ein Link zu viel; senden Sie höchstens 1 auf einmal.',
      ]);
      expect(describeImportLines(parsed)).toBe(
        '1 Link bereit zum Import, 2 Zeilen müssen korrigiert werden, 1 wiederholter Link einmal gezählt',
      );
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
