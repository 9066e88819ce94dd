import { REMOTE_URL_MAX_CHARS, RemoteUrlSchema, USERINFO_PATTERN } from '../api/requests.js';
import { parseWebUrl } from './web-url.js';

/**
 * Why `text` is not a link the service may import, or null when it is one:
 * the one rule of the import box and of `media-sync://import` links, so both
 * refuse the same links with the same words. The answer completes a
 * sentence whose subject is the link ("Line 2: uses ftp; …").
 *
 * The shared RemoteUrlSchema has the final word; the checks before it only
 * give a person a more precise reason.
 */
export function remoteUrlProblem(text: string): string | null {
  // checked first: RemoteUrlSchema's own message for it would only say "must be an http or https URL"
  if (text.length > REMOTE_URL_MAX_CHARS) return `is longer than ${REMOTE_URL_MAX_CHARS} characters`;
  const parsed = parseWebUrl(text);
  if (!parsed) return 'is not a web address (it should start with https://)';
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `uses ${parsed.protocol.replace(/:$/, '')}; only http and https links can be imported`;
  }
  if (USERINFO_PATTERN.test(text) || parsed.username || parsed.password) {
    return 'contains a user name or password; remove them from the link';
  }
  const checked = RemoteUrlSchema.safeParse(text);
  if (!checked.success) return checked.error.issues[0]?.message ?? 'is not a valid link';
  return null;
}
