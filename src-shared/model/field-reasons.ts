import type { IpcError } from '../ipc/ipc-contract.js';

/** At most this many fields, each with at most this many reasons of at most this length: a hostile server gets no more. */
const MAX_FIELDS = 100;
const MAX_REASONS = 5;
const MAX_REASON_CHARS = 500;

/**
 * A validation refusal's reasons per field, when the service gave them as
 * `{ "field.path": ["sentence", …] }` (or one sentence per field). The API
 * does not show the format of these details, so this reads them as a hint:
 * anything else gives `undefined`, and the refusal's message is all there is.
 */
export function fieldReasons(details: unknown): Record<string, string[]> | undefined {
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return undefined;
  const fields: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(details).slice(0, MAX_FIELDS)) {
    const reasons = (Array.isArray(value) ? value : [value])
      .filter((reason): reason is string => typeof reason === 'string' && reason.trim() !== '')
      .slice(0, MAX_REASONS)
      .map((reason) => reason.slice(0, MAX_REASON_CHARS));
    if (reasons.length > 0) fields[field] = reasons;
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/** One link of an import the service refused, with its place in the request and the service's words. */
export interface RefusedLink {
  /** 0-based, as in the request's `urls` */
  index: number;
  url: string;
  reasons: string[];
}

/**
 * The links of `urls` the service named in its refusal (`urls.N`), in their
 * order; empty when it named none (the refusal's message then says it all).
 */
export function refusedLinks(error: Pick<IpcError, 'fields'>, urls: readonly string[]): RefusedLink[] {
  const refused: RefusedLink[] = [];
  for (const [field, reasons] of Object.entries(error.fields ?? {})) {
    const match = /^urls\.(\d+)$/.exec(field);
    const index = match ? Number(match[1]) : -1;
    if (index >= 0 && index < urls.length) refused.push({ index, url: urls[index]!, reasons });
  }
  return refused.sort((a, b) => a.index - b.index);
}
