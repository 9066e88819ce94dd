/** What a secret is replaced with, wherever it was found. */
export const REDACTED = '[redacted]';

/**
 * Names whose value is a secret wherever they appear as `name=value` or
 * `"name":"value"`: `token`, `access_token`, `demoToken`, `key`, `api_key`,
 * `client_secret`, `password`, the daemon's `media_sync_session` cookie...
 * (`tokenStorage` is not: the name must end there).
 */
const SECRET_NAME = String.raw`[A-Za-z_-]*(?:token|key|secret|password|session)`;

/**
 * The second net: shapes of secrets whatever their value, for a token the
 * log was never told about (one typed by hand, another app's). Each rule
 * keeps what names the secret and cuts the value, and leaves `[redacted]`
 * as it is, so scrubbing twice changes nothing.
 */
const RULES: ReadonlyArray<{ pattern: RegExp; replacement: string | ((...groups: string[]) => string) }> = [
  // Authorization: Bearer x / "authorization":"Basic x": the scheme stays, its credentials go
  {
    pattern:
      /(authorization\\*["']?\s*[:=]\s*\\*["']?)(?:(bearer|basic|token|digest|negotiate|apikey)\s+)?([^\s"'\\,;}]+)/gi,
    replacement: (match, prefix, scheme, value) =>
      value === REDACTED ? match : `${prefix}${scheme ? `${scheme} ` : ''}${REDACTED}`,
  },
  { pattern: /\b(bearer)\s+[\w.~+/=-]+/gi, replacement: `$1 ${REDACTED}` },
  // "token":"x", also inside JSON that sits escaped in another string (\"token\":\"x\")
  {
    pattern: new RegExp(String.raw`(\\*"${SECRET_NAME}\\*"\s*:\s*\\*")(?:[^"\\]|\\[^"])+`, 'gi'),
    replacement: `$1${REDACTED}`,
  },
  // token=x in a query string or a key=value line
  { pattern: new RegExp(String.raw`\b(${SECRET_NAME})=[^&\s"',;}]+`, 'gi'), replacement: `$1=${REDACTED}` },
  // Cookie: a=x; b=y / Set-Cookie: a=x; Path=/: every pair of the header, whatever its name, up to a space after them
  {
    pattern: /(\b(?:set-)?cookie\\*["']?\s*[:=]\s*\\*["']?)[^\s;"\\]+(?:;\s*[^\s;"\\=]+(?:=[^\s;"\\]*)?)*/gi,
    replacement: `$1${REDACTED}`,
  },
  // user:password@ in a URL (a proxy address)
  { pattern: /(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)[^@\s/]+@/gi, replacement: `$1${REDACTED}@` },
  // the reference server's tokens: mfs_ and 43 characters of base64url (tokens.ts)
  { pattern: /mfs_[\w-]{20,}/g, replacement: REDACTED },
];

/**
 * `text` with every secret cut out, before anything is written where a
 * person or a support request can read it. First each of `secrets`,
 * exactly, in every form it can take in a message (as is, URL-encoded with
 * either case of hex, JSON-escaped), wherever it sits, even glued to other
 * characters; then the shapes of RULES. Pure: the same input gives the same output.
 */
export function scrubSecrets(text: string, secrets: Iterable<string>): string {
  let scrubbed = text;
  for (const form of secretForms(secrets)) {
    if (scrubbed.includes(form)) scrubbed = scrubbed.split(form).join(REDACTED);
  }
  for (const { pattern, replacement } of RULES) {
    scrubbed =
      typeof replacement === 'string' ? scrubbed.replace(pattern, replacement) : scrubbed.replace(pattern, replacement);
  }
  return scrubbed;
}

/** Every form of every secret, longest first, so a longer form is never cut in half by a shorter one. */
function secretForms(secrets: Iterable<string>): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    const encoded = encodeURIComponent(secret);
    forms.add(secret);
    forms.add(encoded);
    forms.add(encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()));
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** A URL or an absolute path, then `?` and what follows up to a space, a quote or a fragment. */
const QUERY_STRING = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#"'<>]*|(?<!\w)\/[\w\-./%~]*)\?(?!\[redacted\])[^\s"'<>#]+/gi;

/**
 * `text` with the query string of every URL and request path cut off
 * (`https://host/a?x=1` → `https://host/a?[redacted]`, `/files?search=x`
 * likewise): a query may carry a search for a file's name, a signed link's
 * key or a token a server took there, whatever its parameter is called.
 */
export function stripQueryStrings(text: string): string {
  return text.replace(QUERY_STRING, `$1?${REDACTED}`);
}
