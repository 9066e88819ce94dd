import { describe, expect, it } from 'vitest';
import { parseImportLines } from '../../../src-renderer/text/import-lines.js';
import { DEEP_LINK_MAX_CHARS, parseDeepLink } from '../../../src-shared/model/deep-link.js';
import { CoreLanguage } from '../../../src-main/common/i18n.js';

const importLink = (url: string) => `media-sync://import?url=${encodeURIComponent(url)}`;
const messageOf = (link: string) => {
  const parsed = parseDeepLink(link);
  return parsed.kind === 'invalidLink' ? parsed.message : `not refused: ${JSON.stringify(parsed)}`;
};

describe('media-sync:// links', () => {
  it('opens Imports with an encoded http(s) address, exactly as it was before encoding', () => {
    const address = 'https://cdn.example.com/talks/a+b (final).mp4?token=x&part=2#t=10';
    expect(parseDeepLink(importLink(address))).toEqual({ kind: 'import', url: address });
    expect(parseDeepLink(importLink('http://example.org/v.webm'))).toEqual({
      kind: 'import',
      url: 'http://example.org/v.webm',
    });
  });

  it('opens Files with the search decoded once, non-ASCII included, or as it is without one', () => {
    expect(parseDeepLink('media-sync://files?search=holiday%202024')).toEqual({
      kind: 'files',
      search: 'holiday 2024',
    });
    expect(parseDeepLink(`media-sync://files?search=${encodeURIComponent('été à Zürich 🎬')}`)).toEqual({
      kind: 'files',
      search: 'été à Zürich 🎬',
    });
    // typed without encoding, as a person would in a terminal: the parser encodes and decodes it the same
    expect(parseDeepLink('media-sync://files?search=été')).toEqual({ kind: 'files', search: 'été' });
    expect(parseDeepLink('media-sync://files')).toEqual({ kind: 'files', search: null });
    expect(parseDeepLink('media-sync://files?search=%20%20')).toEqual({ kind: 'files', search: null });
  });

  it('takes the trailing slash some browsers add, any case in the scheme and action, and whitespace around', () => {
    const expected = { kind: 'import', url: 'https://a.example/v.mp4' };
    expect(parseDeepLink('media-sync://import/?url=https%3A%2F%2Fa.example%2Fv.mp4')).toEqual(expected);
    expect(parseDeepLink('MEDIA-SYNC://Import?url=https%3A%2F%2Fa.example%2Fv.mp4')).toEqual(expected);
    expect(parseDeepLink(`  ${importLink('https://a.example/v.mp4')}\n`)).toEqual(expected);
    expect(parseDeepLink('media-sync://files/')).toEqual({ kind: 'files', search: null });
  });

  it('refuses other forms of the scheme with the form it takes', () => {
    for (const link of ['media-sync:import?url=https%3A%2F%2Fa.example%2Fv.mp4', 'media-sync:///files']) {
      expect(messageOf(link), link).toBe(
        'This link does not start with media-sync:// followed by what to open. Media Sync opens media-sync://import?url=… and media-sync://files?search=… links.',
      );
    }
  });

  it('refuses links of other schemes, whatever they carry', () => {
    for (const link of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'data:text/html,<script>alert(1)</script>',
      'https://example.com/import?url=https%3A%2F%2Fa.example%2Fv.mp4',
      'media-syncx://import?url=x',
    ]) {
      expect(messageOf(link), link).toBe('This is not a Media Sync link: those start with media-sync://.');
    }
    expect(messageOf('   ')).toBe('The link is empty.');
  });

  it('refuses with the import box’s own words every address the box refuses', () => {
    for (const address of [
      'javascript:alert(1)',
      'file:///home/me/v.mp4',
      'data:video/mp4;base64,AAAA',
      'ftp://media.example.com/v.mp4',
      'https://user:secret@example.com/v.mp4',
      'http://a%40b:c@example.com/v.mp4',
      'holiday.mp4',
      `https://example.com/${'a'.repeat(2100)}`,
    ]) {
      const box = parseImportLines(address).errors;
      expect(box, address).toHaveLength(1);
      const reason = box[0]!.replace(/^Line 1: /, '').replace(/\.$/, '');
      expect(messageOf(importLink(address)), address).toBe(`The address to import ${reason}.`);
    }
    expect(messageOf(importLink('https://user:secret@example.com/v.mp4'))).toBe(
      'The address to import contains a user name or password; remove them from the link.',
    );
    expect(messageOf(importLink(`https://example.com/${'a'.repeat(2100)}`))).toBe(
      'The address to import is longer than 2048 characters.',
    );
  });

  it('decodes once: a double-encoded address is not a web address', () => {
    const twice = encodeURIComponent(encodeURIComponent('https://a.example/v.mp4'));
    expect(messageOf(`media-sync://import?url=${twice}`)).toBe(
      'The address to import is not a web address (it should start with https://).',
    );
    expect(messageOf('media-sync://import?url=https%3A%2F%2Fa.example%2F%E0%A4%A')).toBe(
      'This link has a broken %-escape, so it cannot be read.',
    );
  });

  it('refuses an address that was not encoded instead of importing the part before its &', () => {
    expect(messageOf('media-sync://import?url=https://a.example/v.mp4?id=1&part=2')).toBe(
      'This link has a part Media Sync does not know (“part”). An address inside the link must be encoded, & and ? included.',
    );
    expect(messageOf('media-sync://import?url=https://a.example/v.mp4#t=10')).toBe(
      'This link has a # part, which Media Sync links do not use. An address inside the link must be encoded, # included.',
    );
  });

  it('names what is missing, repeated or unknown', () => {
    const noAddress = 'This import link has no address to import: it needs url= and an https link.';
    expect(messageOf('media-sync://import')).toBe(noAddress);
    expect(messageOf('media-sync://import?url=')).toBe(noAddress);
    expect(
      messageOf('media-sync://import?url=https%3A%2F%2Fa.example%2Fa.mp4&url=https%3A%2F%2Fb.example%2Fb.mp4'),
    ).toBe('This link gives url= more than once, so it is not clear which one to use.');
    expect(messageOf('media-sync://files?search=a&search=b')).toBe(
      'This link gives search= more than once, so it is not clear which one to use.',
    );
    expect(messageOf('media-sync://files?url=https%3A%2F%2Fa.example%2Fv.mp4')).toMatch(/does not know \(“url”\)/);
    const unknown =
      'Media Sync does not know what this link asks for. Media Sync opens media-sync://import?url=… and media-sync://files?search=… links.';
    for (const link of [
      'media-sync://upload?path=%2Fetc%2Fpasswd',
      'media-sync://import/now?url=https%3A%2F%2Fa.example%2Fv.mp4',
      'media-sync://user:pw@import?url=https%3A%2F%2Fa.example%2Fv.mp4',
      'media-sync://import:8080?url=https%3A%2F%2Fa.example%2Fv.mp4',
    ]) {
      expect(messageOf(link), link).toBe(unknown);
    }
  });

  it('refuses a search longer than files:list takes, or with control or direction characters', () => {
    expect(parseDeepLink(`media-sync://files?search=${'a'.repeat(255)}`)).toEqual({
      kind: 'files',
      search: 'a'.repeat(255),
    });
    expect(messageOf(`media-sync://files?search=${'a'.repeat(256)}`)).toBe(
      'The search in this link is longer than 255 characters.',
    );
    for (const hostile of ['a%0Ab', 'a%00b', '%E2%80%AEcod.exe']) {
      expect(messageOf(`media-sync://files?search=${hostile}`), hostile).toBe(
        'The search in this link contains control characters.',
      );
    }
  });

  it('does not read a link past 4,096 characters, and shows only the start of a refused one, safely', () => {
    const long = importLink(`https://example.com/${'a'.repeat(DEEP_LINK_MAX_CHARS)}`);
    expect(parseDeepLink(long)).toEqual({
      kind: 'invalidLink',
      link: `${long.slice(0, 120)}…`,
      message: 'This link is longer than 4,096 characters, so it was not opened.',
      text: { key: 'core.deepLink.tooLong', values: { max: 4096 } },
    });
    const spoofed = parseDeepLink('media-sync://nope?\u202Ecod.exe\n');
    expect(spoofed).toMatchObject({ kind: 'invalidLink', link: 'media-sync://nope?\uFFFDcod.exe' });
    // a cut never leaves half of an emoji behind
    const emoji = parseDeepLink(`media-sync://nope?${'a'.repeat(101)}${'🎬'.repeat(20)}`);
    expect(emoji.kind === 'invalidLink' && emoji.link).toBe(`media-sync://nope?${'a'.repeat(101)}…`);
  });

  it('gives its reason as a catalog message too, so the UI says it in its own language', async () => {
    const german = new CoreLanguage(() => ['de-DE']);
    await german.ready;
    const refused = (link: string) => {
      const parsed = parseDeepLink(link);
      return parsed.kind === 'invalidLink' && parsed.text ? german.translate(parsed.text) : JSON.stringify(parsed);
    };
    expect(refused('x'.repeat(DEEP_LINK_MAX_CHARS + 1))).toBe(
      'Dieser Link ist länger als 4.096 Zeichen und wurde deshalb nicht geöffnet.',
    );
    expect(refused(importLink('ftp://media.example.com/v.mp4'))).toBe(
      'Die zu importierende Adresse verwendet ftp; importiert werden können nur http- und https-Links.',
    );
    expect(refused('media-sync://files?search=a&search=b')).toBe(
      'Dieser Link gibt search= mehr als einmal an, daher ist unklar, welcher Wert gilt.',
    );
  });
});
