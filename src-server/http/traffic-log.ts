import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.js';

/**
 * What the server received, kept in memory so tests can count exactly what
 * reached it (chunks stored, requests refused) instead of inferring it from
 * what a client believes it sent. Bounded, so a long benchmark cannot grow it
 * without end; nothing here is persisted or holds a token.
 */

/** One request that reached the upload handler (it passed the gate). */
export interface UploadLogEntry {
  /** the `dzuuid` field as sent; null for a single-request upload */
  dzuuid: string | null;
  /** `dzchunkindex` when it is a whole number, else null */
  chunkIndex: number | null;
  /** `dztotalchunkcount` when it is a whole number, else null */
  totalChunks: number | null;
  /** the file part's name after the server kept only its base name; '' when no file part was read */
  fileName: string;
  /** bytes of the file part the server read (all of them unless the request failed while reading) */
  bytes: number;
  /** the status the server answered; 0 when the client went away before a complete answer */
  status: number;
  /** server clock (epoch ms) when the handler started */
  at: number;
}

/** One /api/v1 request, whatever became of it. */
export interface RequestLogEntry {
  method: string;
  /** the path without its query string (which may hold a file password) */
  path: string;
  /** the status the server answered; 0 when the client went away before a complete answer */
  status: number;
  /** server clock (epoch ms) when the request head arrived */
  at: number;
}

/** The read side a test gets on the server handle. */
export interface TrafficLog<T> {
  /** in the order the exchanges ended, oldest first; a copy, so later requests do not change it */
  entries(): readonly T[];
  clear(): void;
}

export const TRAFFIC_LOG_CAPACITY = 100_000;

/** A ring of the last `capacity` entries: one array slot per entry, no copying until it is read. */
export class BoundedLog<T> implements TrafficLog<T> {
  private readonly slots: T[] = [];
  /** where the next entry goes once the ring is full */
  private next = 0;

  constructor(private readonly capacity = TRAFFIC_LOG_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
  }

  push(entry: T): void {
    if (this.slots.length < this.capacity) {
      this.slots.push(entry);
      return;
    }
    this.slots[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
  }

  entries(): readonly T[] {
    return [...this.slots.slice(this.next), ...this.slots.slice(0, this.next)];
  }

  clear(): void {
    this.slots.length = 0;
    this.next = 0;
  }
}

/**
 * Calls `done` with the status once the exchange is over: the response sent in
 * full, or 0 when the connection closed first (a client that reset mid-body).
 * 'close' fires in both cases, unlike fastify's onResponse.
 */
export function whenExchangeEnds(reply: FastifyReply, done: (status: number) => void): void {
  const res = reply.raw;
  res.once('close', () => done(res.writableFinished ? res.statusCode : 0));
}

/** An onRequest hook that logs each request of its scope with the status it ends with. */
export function logRequests(log: BoundedLog<RequestLogEntry>, clock: Clock) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const url = request.url;
    const query = url.indexOf('?');
    const entry: RequestLogEntry = {
      method: request.method,
      path: query === -1 ? url : url.slice(0, query),
      status: 0,
      at: clock.now(),
    };
    whenExchangeEnds(reply, (status) => {
      entry.status = status;
      log.push(entry);
    });
  };
}
