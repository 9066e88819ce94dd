import { englishText, message, type Message } from '../i18n/message.js';
import { REMOTE_URL_MAX_CHARS, RemoteUrlSchema, USERINFO_PATTERN } from '../api/requests.js';
import { parseWebUrl } from './web-url.js';

/** Why a text is not a link the service may import: a code and its values, put into words by whoever shows it. */
export type RemoteUrlProblem =
  | { code: 'tooLong'; max: number }
  | { code: 'notWebAddress' }
  | { code: 'scheme'; scheme: string }
  | { code: 'userInfo' }
  | { code: 'notHttp' }
  | { code: 'invalid' };

/**
 * Why `text` is not a link the service may import, or null when it is one:
 * the one rule of the import box and of `media-sync://import` links, so both
 * refuse the same links with the same words (`remoteUrlLineMessage`,
 * `remoteUrlLinkMessage`: whole sentences in the catalogs).
 *
 * The shared RemoteUrlSchema has the final word; the checks before it only
 * give a person a more precise reason.
 */
export function findRemoteUrlProblem(text: string): RemoteUrlProblem | null {
  // checked first: RemoteUrlSchema's own message for it would only say "must be an http or https URL"
  if (text.length > REMOTE_URL_MAX_CHARS) return { code: 'tooLong', max: REMOTE_URL_MAX_CHARS };
  const parsed = parseWebUrl(text);
  if (!parsed) return { code: 'notWebAddress' };
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { code: 'scheme', scheme: parsed.protocol.replace(/:$/, '') };
  }
  if (USERINFO_PATTERN.test(text) || parsed.username || parsed.password) return { code: 'userInfo' };
  const checked = RemoteUrlSchema.safeParse(text);
  if (checked.success) return null;
  return checked.error.issues[0]?.message === 'must be an http or https URL'
    ? { code: 'notHttp' }
    : { code: 'invalid' };
}

/** The problem as a message completing a sentence whose subject is the link ("is longer than 2048 characters"). */
export function remoteUrlProblemMessage({ code, ...values }: RemoteUrlProblem): Message {
  return message(`core.remoteUrl.problem.${code}`, values);
}

/** The import box's whole sentence about line `line` ("Line 2: uses ftp; …"). */
export function remoteUrlLineMessage({ code, ...values }: RemoteUrlProblem, line: number): Message {
  return message(`core.remoteUrl.line.${code}`, { ...values, line });
}

/** A `media-sync://import` link's whole sentence about the address it carries. */
export function remoteUrlLinkMessage({ code, ...values }: RemoteUrlProblem): Message {
  return message(`core.remoteUrl.link.${code}`, values);
}

/**
 * Why `text` is not a link the service may import, in English, or null: the
 * predicate of a sentence whose subject is the link ("Line 2: uses ftp; …").
 * The UI translates `findRemoteUrlProblem` instead.
 */
export function remoteUrlProblem(text: string): string | null {
  const problem = findRemoteUrlProblem(text);
  return problem && englishText(remoteUrlProblemMessage(problem));
}
