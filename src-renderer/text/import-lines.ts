import {
  findRemoteUrlProblem,
  remoteUrlLineMessage,
  remoteUrlProblemMessage,
} from '../../src-shared/model/remote-url-problem.js';
import { t } from '../i18n/i18n.js';
import { formatCount } from './file-columns.js';
import { translate } from '../i18n/translate.js';

/**
 * The spec does not give a maximum number of URLs per POST /remote-uploads;
 * the reference server takes 50. The app sends a long paste in batches of
 * this size, so any server that takes at least 50 accepts every request.
 */
export const URLS_PER_REQUEST = 50;

/**
 * How many links one paste may hold. Every batch is a request out of the
 * account's 60 a minute, shared with uploads: 500 links are 10 requests.
 */
export const MAX_URLS_PER_PASTE = 500;

export type ImportLine =
  | { kind: 'url'; lineNumber: number; url: string }
  /** the same link again: sent once, not counted twice */
  | { kind: 'duplicate'; lineNumber: number; url: string; firstLine: number }
  | { kind: 'invalid'; lineNumber: number; text: string; reason: string };

export interface ParsedImportLines {
  /** every non-blank line, in order */
  lines: ImportLine[];
  /** the distinct valid links, in order: what "Import" sends */
  urls: string[];
  /** one message per invalid line, naming it: "Line 2: …", in the UI's language */
  errors: string[];
}

/**
 * Splits a paste box into links, one per line, and checks each before
 * anything is sent. Blank lines are skipped; a repeated link counts once;
 * lines past MAX_URLS_PER_PASTE valid links are errors so nothing is
 * silently dropped; a link the service refused (`refused`: its reasons, by
 * link) needs fixing as the box's own problems do, until it is changed.
 * Line numbers are those of the text box (1-based).
 */
export function parseImportLines(
  text: string,
  refused: ReadonlyMap<string, string> = new Map(),
  maxUrls = MAX_URLS_PER_PASTE,
): ParsedImportLines {
  const lines: ImportLine[] = [];
  const urls: string[] = [];
  const errors: string[] = [];
  const firstSeen = new Map<string, number>();
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const lineNumber = index + 1;
    const trimmed = raw.trim();
    if (!trimmed) return;
    // the rule media-sync://import links follow too: both refuse the same links with the same words
    const problem = findRemoteUrlProblem(trimmed);
    if (problem) {
      lines.push({ kind: 'invalid', lineNumber, text: trimmed, reason: translate(remoteUrlProblemMessage(problem)) });
      errors.push(translate(remoteUrlLineMessage(problem, lineNumber)));
      return;
    }
    const refusal = refused.get(trimmed);
    if (refusal !== undefined) {
      lines.push({ kind: 'invalid', lineNumber, text: trimmed, reason: refusal });
      errors.push(t('imports.lineRefused', { line: lineNumber, reason: refusal }));
      return;
    }
    const seen = firstSeen.get(trimmed);
    if (seen !== undefined) {
      lines.push({ kind: 'duplicate', lineNumber, url: trimmed, firstLine: seen });
      return;
    }
    if (urls.length >= maxUrls) {
      const reason = t('imports.tooMany', { max: formatCount(maxUrls) });
      lines.push({ kind: 'invalid', lineNumber, text: trimmed, reason });
      errors.push(t('imports.lineProblem', { line: lineNumber, problem: reason }));
      return;
    }
    firstSeen.set(trimmed, lineNumber);
    lines.push({ kind: 'url', lineNumber, url: trimmed });
    urls.push(trimmed);
  });
  return { lines, urls, errors };
}

/**
 * The box's text with `links` on lines of their own after it (a link opened
 * from outside the app); one already on a line of the box is not added twice.
 */
export function appendLinks(text: string, links: readonly string[]): string {
  const present = new Set(text.split(/\r\n|\r|\n/).map((line) => line.trim()));
  const added: string[] = [];
  for (const link of links) {
    if (present.has(link)) continue;
    present.add(link);
    added.push(link);
  }
  if (added.length === 0) return text;
  const before = text.replace(/[\r\n]+$/, '');
  return [...(before ? [before] : []), ...added].join('\n');
}

/** Splits links into requests of at most `size`, in order. */
export function batches<T>(items: readonly T[], size = URLS_PER_REQUEST): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/**
 * "3 links ready to import, 1 repeated link counted once": the summary under
 * the box, a list of whole phrases (each with its own plural) in the UI's
 * language.
 */
export function describeImportLines(parsed: ParsedImportLines): string {
  const duplicates = parsed.lines.filter((line) => line.kind === 'duplicate').length;
  const parts: string[] = [t('imports.ready', { count: parsed.urls.length })];
  if (parsed.errors.length > 0) parts.push(t('imports.fixing', { count: parsed.errors.length }));
  if (duplicates > 0) parts.push(t('imports.repeated', { count: duplicates }));
  return parts.join(', ');
}
