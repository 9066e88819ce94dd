import { describe, expect, it } from 'vitest';
import { REDACTED, scrubSecrets, stripQueryStrings } from '../../../src-main/common/scrub-secrets.js';

/** A token of no known shape: only its registration can catch it. */
const CANARY = 'CanarY-7f3a/9b+Qz=x%41~tok';
const MFS = `mfs_${'Ab9-_'.repeat(8)}xyz`;

describe('scrubSecrets', () => {
  it('cuts a registered secret out wherever it sits, even glued to other text', () => {
    expect(scrubSecrets(`signed in with ${CANARY}.`, [CANARY])).toBe('signed in with [redacted].');
    expect(scrubSecrets(`abc${CANARY}def${CANARY}`, [CANARY])).toBe('abc[redacted]def[redacted]');
    expect(scrubSecrets(CANARY, [CANARY])).toBe(REDACTED);
    expect(scrubSecrets('nothing secret here', [CANARY])).toBe('nothing secret here');
  });

  it('cuts the URL-encoded form (either case of hex) and the JSON-escaped form of a secret', () => {
    const encoded = encodeURIComponent(CANARY);
    expect(encoded).not.toBe(CANARY);
    expect(scrubSecrets(`GET /x?t=${encoded}&page=2`, [CANARY])).toBe('GET /x?t=[redacted]&page=2');
    expect(scrubSecrets(`GET /x?t=${encoded.toLowerCase()}`, [CANARY.toLowerCase()])).toBe('GET /x?t=[redacted]');
    const quoted = 'tok"en\\with\nquotes';
    const json = JSON.stringify({ note: `said ${quoted}` });
    expect(scrubSecrets(json, [quoted])).toBe('{"note":"said [redacted]"}');
  });

  it('cuts a token out of an Error message and stack, a cause chain and a JSON body', () => {
    const inner = new Error(`upstream echoed Authorization ${CANARY}`);
    const outer = new Error(`request failed for ${CANARY}`, { cause: inner });
    const text = [outer.message, outer.stack, String((outer.cause as Error).stack)].join('\n');
    expect(text).toContain(CANARY);
    const scrubbed = scrubSecrets(text, [CANARY]);
    expect(scrubbed).not.toContain(CANARY);
    expect(scrubbed).toContain('request failed for [redacted]');
    expect(scrubbed).toContain('upstream echoed Authorization [redacted]');

    const body = JSON.stringify({ error: { message: `bad token ${CANARY}` }, token: CANARY });
    expect(scrubSecrets(body, [CANARY])).toBe('{"error":{"message":"bad token [redacted]"},"token":"[redacted]"}');
  });

  it('replaces several secrets, the longest first, so no part of a longer one is left', () => {
    const short = 'abcdefgh';
    const long = `${short}-and-more-secret`;
    expect(scrubSecrets(`${long} ${short}`, [short, long])).toBe('[redacted] [redacted]');
  });

  it('catches secrets it was never told about by their shape', () => {
    const cases: Array<[string, string]> = [
      [`Authorization: Bearer ${CANARY}`, 'Authorization: Bearer [redacted]'],
      ['authorization: Basic dXNlcjpwYXNz', 'authorization: Basic [redacted]'],
      ['{"Authorization":"Bearer abc.def-ghi"}', '{"Authorization":"Bearer [redacted]"}'],
      ['headers: {authorization=opaque-value}', 'headers: {authorization=[redacted]}'],
      ['sent with bearer   abc.DEF_123~+/=', 'sent with bearer [redacted]'],
      ['GET /files?token=abc123&page=2', 'GET /files?token=[redacted]&page=2'],
      ['callback?access_token=abc&state=1', 'callback?access_token=[redacted]&state=1'],
      ['running at http://127.0.0.1:8790/?key=Zm9vYmFy', 'running at http://127.0.0.1:8790/?key=[redacted]'],
      ['cookie: media_sync_session=Zm9vYmFy; theme=dark', 'cookie: [redacted]'],
      ['{"token":"s3cret","tokenStorage":"a file (0600)"}', '{"token":"[redacted]","tokenStorage":"a file (0600)"}'],
      ['{"demoToken": "abc", "password":"hunter2"}', '{"demoToken": "[redacted]", "password":"[redacted]"}'],
      [JSON.stringify(JSON.stringify({ token: 'abc' })), JSON.stringify(JSON.stringify({ token: REDACTED }))],
      [
        'proxy http://bob:hunter2@proxy.example:3128/ refused',
        'proxy http://bob:[redacted]@proxy.example:3128/ refused',
      ],
      [`the reference server's ${MFS} leaked`, "the reference server's [redacted] leaked"],
      [`glued:${MFS}`, 'glued:[redacted]'],
    ];
    for (const [text, expected] of cases) expect(scrubSecrets(text, [])).toBe(expected);
  });

  it('leaves ordinary log text alone and changes nothing when run twice', () => {
    const ordinary = [
      'Uploaded clip.mp4 (file id Ab12). tokenStorage: a file only your user can read (0600)',
      'at upload (file:///home/you/media-sync/src-main/uploads/upload-queue.ts:120:7)',
      'The server refused the token: Token disabled. (TOKEN_DISABLED, request id 1b2c)',
      'mfs_wrong is too short to be a token of the reference server',
      'http://127.0.0.1:8790/api/v1/files?page=2',
    ];
    for (const text of ordinary) expect(scrubSecrets(text, [])).toBe(text);

    const messy = `Authorization: Bearer ${CANARY} token=${CANARY} {"token":"${MFS}"} http://u:p@h/ ${MFS}`;
    const once = scrubSecrets(messy, [CANARY]);
    expect(once).toBe(
      'Authorization: Bearer [redacted] token=[redacted] {"token":"[redacted]"} http://u:[redacted]@h/ [redacted]',
    );
    expect(scrubSecrets(once, [CANARY])).toBe(once);
  });

  it('ignores an empty secret instead of cutting between every character', () => {
    expect(scrubSecrets('plain text', [''])).toBe('plain text');
  });
});

describe('scrubSecrets: cookies', () => {
  it('cuts every pair of a Cookie or Set-Cookie header, whatever its names, and leaves what follows', () => {
    expect(scrubSecrets('Cookie: theme=dark; sid=Numbat-99 then GET /a', [])).toBe('Cookie: [redacted] then GET /a');
    expect(scrubSecrets('Set-Cookie: a=b; Path=/; HttpOnly next', [])).toBe('Set-Cookie: [redacted] next');
    expect(scrubSecrets('{"cookie":"sid=abc; x=y","a":1}', [])).toBe('{"cookie":"[redacted]","a":1}');
    expect(scrubSecrets(scrubSecrets('cookie: sid=abc', []), [])).toBe('cookie: [redacted]');
  });
});

describe('stripQueryStrings', () => {
  it("cuts the query of a URL and of a request path, keeps the fragment and a sentence's question mark", () => {
    expect(stripQueryStrings('GET /api/v1/files?search=IMG_1.jpg&page=2 failed')).toBe(
      'GET /api/v1/files?[redacted] failed',
    );
    expect(stripQueryStrings('see https://cdn.test:8/a/b?sig=Bilby#t=3 ok')).toBe(
      'see https://cdn.test:8/a/b?[redacted]#t=3 ok',
    );
    expect(stripQueryStrings('"url":"http://h/x?key=1"')).toBe('"url":"http://h/x?[redacted]"');
    expect(stripQueryStrings('Did it fail? Yes, is it?')).toBe('Did it fail? Yes, is it?');
    expect(stripQueryStrings(stripQueryStrings('/x?a=1'))).toBe('/x?[redacted]');
  });
});
