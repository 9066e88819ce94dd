import type { HttpResult } from './request-scheduler.js';

/** One request an account's client sent, as a support file lists it. */
export interface RequestRecord {
  /** when it was answered or failed (ms since the epoch) */
  at: number;
  method: string;
  /** the path under the base URL, without its query string (it may carry a search for a file's name) */
  path: string;
  /** null: no answer (the connection failed or the request was stopped) */
  status: number | null;
  /** the answer's X-Request-ID, or the error envelope's request_id */
  requestId: string | null;
}

/** How many requests each client remembers. */
export const REQUEST_LOG_SIZE = 100;

/**
 * The last requests of one client, newest last, in a bounded ring: what a
 * support file shows so the service's operator can find them in their own
 * logs by id. Kept in memory only; nothing of a body or a header but the id.
 */
export class RequestLog {
  private readonly records: RequestRecord[] = [];

  constructor(private readonly size = REQUEST_LOG_SIZE) {}

  record(method: string, path: string, result: HttpResult | null, at: number): void {
    const id = result?.headers['x-request-id'];
    const body = result?.body as { request_id?: unknown } | null | undefined;
    this.records.push({
      at,
      method,
      path: path.split('?')[0] ?? path,
      status: result?.status ?? null,
      requestId: (Array.isArray(id) ? id[0] : id) ?? (typeof body?.request_id === 'string' ? body.request_id : null),
    });
    if (this.records.length > this.size) this.records.splice(0, this.records.length - this.size);
  }

  list(): RequestRecord[] {
    return [...this.records];
  }
}
