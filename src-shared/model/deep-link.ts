import * as z from 'zod';
import { API_LIMITS } from '../api/limits.js';
import { RemoteUrlSchema } from '../api/requests.js';
import { hasControlCharacters, withoutControlCharacters } from '../api/text.js';
import { MessageSchema } from '../i18n/message-schema.js';
import { englishText, message, type Message } from '../i18n/message.js';
import { findRemoteUrlProblem, remoteUrlLinkMessage } from './remote-url-problem.js';
import { parseWebUrl } from './web-url.js';

/**
 * `media-sync://` links: what a web page, another app or the OS may ask of
 * Media Sync. A link only ever opens a view and fills in a field; nothing is
 * sent to the service until the person clicks (issue 10):
 *
 *   media-sync://import?url=<encodeURIComponent(http(s) URL)>  → Imports, the link in the paste box
 *   media-sync://files[?search=<text>]                        → Files, the search filled in
 *
 * One form only, plus a trailing slash after the action (`media-sync://import/?url=…`),
 * which some Windows browsers add to a link with no path. Operating systems pass a
 * link exactly as it was written, so `media-sync:import` or `media-sync:///import`
 * come only from a page that wrote them so; refusing them with a message that
 * shows the right form keeps every page's links working the same everywhere.
 */

export const DEEP_LINK_SCHEME = 'media-sync';

/** Links longer than this are refused unread: a real one is the scheme, an action and one URL of at most 2048. */
export const DEEP_LINK_MAX_CHARS = 4096;

/** How much of a refused link is shown back to the person. */
export const SHOWN_LINK_MAX_CHARS = 120;

const SEARCH_MAX_CHARS = API_LIMITS.searchMaxChars;

export const ImportLinkSchema = z.object({ kind: z.literal('import'), url: RemoteUrlSchema });
/** `search` null: open Files as it is */
export const FilesLinkSchema = z.object({
  kind: z.literal('files'),
  search: z.string().min(1).max(SEARCH_MAX_CHARS).nullable(),
});
/**
 * A link that does nothing but say why: `link` is the start of it, for
 * display only (never an href); `text` the reason as a catalog message, for
 * the UI to show in its own language, and `message` the same in English.
 */
export const InvalidLinkSchema = z.object({
  kind: z.literal('invalidLink'),
  link: z.string().max(SHOWN_LINK_MAX_CHARS + 1),
  message: z.string().min(1),
  text: MessageSchema.optional(),
});
export const DeepLinkSchema = z.discriminatedUnion('kind', [ImportLinkSchema, FilesLinkSchema, InvalidLinkSchema]);
export type DeepLink = z.infer<typeof DeepLinkSchema>;

/** The parameters each action takes; any other is refused (`parameterProblem`). */
const ACTIONS = { import: ['url'], files: ['search'] } as const;
type Action = keyof typeof ACTIONS;

/**
 * What a `media-sync://` link asks for. Never throws: anything that is not
 * exactly one of the two forms becomes `invalidLink` with a whole sentence
 * saying what is wrong (a catalog message, and in English), and the import link's address passes the very rule
 * of the import box (`remoteUrlProblem`).
 */
export function parseDeepLink(text: string): DeepLink {
  if (text.length > DEEP_LINK_MAX_CHARS) {
    return invalid(text, message('core.deepLink.tooLong', { max: DEEP_LINK_MAX_CHARS }));
  }
  // a link copied with a line break or passed with a trailing space by a shell
  const link = text.trim();
  if (!link) return invalid(link, message('core.deepLink.empty'));
  if (!link.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}:`)) {
    return invalid(link, message('core.deepLink.notMediaSync'));
  }
  const url = parseWebUrl(link);
  if (!url) return invalid(link, message('core.deepLink.notAddress'));
  if (!link.slice(DEEP_LINK_SCHEME.length + 1).startsWith('//') || !url.host) {
    return invalid(link, message('core.deepLink.noSlashes'));
  }
  const action = `${url.host}${url.pathname.replace(/\/$/, '')}`.toLowerCase();
  if (url.username || url.password || url.port || !Object.hasOwn(ACTIONS, action)) {
    return invalid(link, message('core.deepLink.unknownAction'));
  }
  if (url.hash) {
    return invalid(link, message('core.deepLink.hash'));
  }
  const params = queryParameters(url.search);
  if (!params) return invalid(link, message('core.deepLink.brokenEscape'));
  const problem = parameterProblem(action as Action, params);
  if (problem) return invalid(link, problem);

  if (action === 'import') {
    const address = (params.get('url')?.[0] ?? '').trim();
    if (!address) return invalid(link, message('core.deepLink.noAddress'));
    const problem = findRemoteUrlProblem(address);
    if (problem) return invalid(link, remoteUrlLinkMessage(problem));
    return ImportLinkSchema.parse({ kind: 'import', url: address });
  }
  const search = (params.get('search')?.[0] ?? '').trim();
  if (search.length > SEARCH_MAX_CHARS) {
    return invalid(link, message('core.deepLink.searchTooLong', { max: SEARCH_MAX_CHARS }));
  }
  if (hasControlCharacters(search)) return invalid(link, message('core.deepLink.searchControl'));
  return FilesLinkSchema.parse({ kind: 'files', search: search || null });
}

/**
 * The query, each name and value decoded exactly once with decodeURIComponent
 * (a `+` stays a `+`: it is part of many file addresses, and the links are
 * made with encodeURIComponent); null when an escape is broken. Repeated
 * names are kept, to be refused.
 */
function queryParameters(search: string): Map<string, string[]> | null {
  const params = new Map<string, string[]>();
  for (const pair of search.replace(/^\?/, '').split('&')) {
    if (!pair) continue;
    const equals = pair.indexOf('=');
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(equals < 0 ? pair : pair.slice(0, equals));
      value = equals < 0 ? '' : decodeURIComponent(pair.slice(equals + 1));
    } catch {
      return null;
    }
    params.set(name, [...(params.get(name) ?? []), value]);
  }
  return params;
}

/**
 * A parameter the action does not take, or one given twice. Strict on
 * purpose: an address with its own `?a=1&b=2` pasted without encoding would
 * otherwise be cut at `&` and another file imported without a word.
 */
function parameterProblem(action: Action, params: Map<string, string[]>): Message | null {
  const allowed: readonly string[] = ACTIONS[action];
  for (const [name, values] of params) {
    if (!allowed.includes(name)) return message('core.deepLink.unknownPart', { name: shorten(name, 40) });
    if (values.length > 1) return message('core.deepLink.repeated', { name });
  }
  return null;
}

function invalid(link: string, text: Message): DeepLink {
  return InvalidLinkSchema.parse({
    kind: 'invalidLink',
    link: shorten(link, SHOWN_LINK_MAX_CHARS),
    message: englishText(text),
    text,
  });
}

/** The start of `text`, safe to show: control and direction characters become U+FFFD, and a cut never splits a character. */
function shorten(text: string, max: number): string {
  const shown = withoutControlCharacters(text, '\uFFFD');
  if (shown.length <= max) return shown;
  const cut = /[\uD800-\uDBFF]/.test(shown[max - 1]!) ? max - 1 : max;
  return `${shown.slice(0, cut)}…`;
}
