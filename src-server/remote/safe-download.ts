import { createWriteStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SNIFF_BYTES, bodyRefusal, labelRefusal, mediaTypeEssence } from './content-check.js';
import {
  TargetRefused,
  checkUrlShape,
  resolveTarget,
  type ResolvedAddress,
  type TargetPolicy,
} from './target-guard.js';

export const MAX_REDIRECTS = 5;

export type DownloadFailureCode =
  | 'TARGET_REFUSED'
  | 'TOO_MANY_REDIRECTS'
  | 'NOT_VIDEO'
  | 'TOO_LARGE'
  | 'TIMEOUT'
  | 'SOURCE_HTTP_ERROR'
  | 'NETWORK_ERROR'
  | 'CANCELLED';

/** Why an import download stopped; `message` is shown to the user as the job's error. */
export class DownloadFailed extends Error {
  constructor(
    readonly code: DownloadFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'DownloadFailed';
  }
}

export interface DownloadOptions {
  policy: TargetPolicy;
  dest: string;
  maxBytes: number;
  deadlineMs: number;
  idleTimeoutMs: number;
  signal: AbortSignal;
  onResponse?: (info: { bytesTotal: number | null }) => void;
  onProgress?: (bytesDownloaded: number) => void;
}

export interface DownloadResult {
  bytes: number;
  mediaType: string;
  /** filename from Content-Disposition, when the source sent one */
  filename: string | null;
  finalUrl: URL;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Downloads a remote video to `dest` behind the SSRF guard:
 * - every hop (at most 5 redirects) is checked and connected to the checked addresses only;
 * - a redirect from https to http is refused;
 * - the label must be video or opaque, and the first bytes must not be markup, script or text;
 * - the byte cap, an idle timeout and an overall deadline bound the transfer.
 */
export async function safeDownload(source: URL, options: DownloadOptions): Promise<DownloadResult> {
  const deadline = AbortSignal.timeout(options.deadlineMs);
  const signal = AbortSignal.any([options.signal, deadline]);
  try {
    let url = source;
    for (let hop = 0; ; hop++) {
      const addresses = await resolveTarget(url, options.policy);
      signal.throwIfAborted();
      const response = await get(url, addresses, options.idleTimeoutMs, signal);
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        response.resume();
        if (hop >= MAX_REDIRECTS)
          throw new DownloadFailed('TOO_MANY_REDIRECTS', `more than ${MAX_REDIRECTS} redirects`);
        url = nextHop(url, response.headers.location);
        continue;
      }
      if (status !== 200) {
        response.resume();
        throw new DownloadFailed('SOURCE_HTTP_ERROR', `the source answered HTTP ${status}`);
      }
      return await receive(url, response, options, signal);
    }
  } catch (error) {
    throw asDownloadFailure(error, options.signal, deadline);
  }
}

function nextHop(from: URL, location: string | undefined): URL {
  if (!location) throw new DownloadFailed('SOURCE_HTTP_ERROR', 'the source redirected without a Location');
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new TargetRefused('the source redirected to an invalid URL');
  }
  checkUrlShape(next);
  if (from.protocol === 'https:' && next.protocol === 'http:') {
    throw new TargetRefused('the source redirected from https to plain http');
  }
  return next;
}

/** Connects only to addresses the guard has approved; Node skips this for literal IPs, which were checked directly. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : undefined;
    const candidates = family ? addresses.filter((a) => a.family === family) : addresses;
    if (candidates.length === 0) {
      callback(Object.assign(new Error('no approved address of that family'), { code: 'ENOTFOUND' }), '', 4);
    } else if (options.all) {
      (callback as unknown as (e: null, all: ResolvedAddress[]) => void)(null, candidates);
    } else {
      callback(null, candidates[0]!.address, candidates[0]!.family);
    }
  };
}

function get(url: URL, addresses: ResolvedAddress[], idleTimeoutMs: number, signal: AbortSignal) {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = client.get(url, {
      lookup: pinnedLookup(addresses),
      agent: false,
      signal,
      timeout: idleTimeoutMs,
      headers: { 'user-agent': 'MediaFileService-RemoteImport/1', accept: 'video/*, application/octet-stream;q=0.5' },
    });
    let response: http.IncomingMessage | undefined;
    request.once('timeout', () => {
      const stalled = new DownloadFailed(
        'TIMEOUT',
        `the source sent nothing for ${Math.round(idleTimeoutMs / 1000)} s`,
      );
      // After the headers the body stream is what the pipeline reads: fail it, not the request.
      if (response) response.destroy(stalled);
      else request.destroy(stalled);
    });
    request.once('response', (res) => {
      response = res;
      resolve(res);
    });
    request.once('error', reject);
  });
}

async function receive(
  url: URL,
  response: http.IncomingMessage,
  options: DownloadOptions,
  signal: AbortSignal,
): Promise<DownloadResult> {
  const essence = mediaTypeEssence(response.headers['content-type']);
  const labelProblem = labelRefusal(essence);
  if (labelProblem) {
    response.resume();
    throw new DownloadFailed('NOT_VIDEO', labelProblem);
  }
  const declared = response.headers['content-length'] ? Number(response.headers['content-length']) : null;
  const bytesTotal = declared !== null && Number.isSafeInteger(declared) ? declared : null;
  if (bytesTotal !== null && bytesTotal > options.maxBytes) {
    response.resume();
    throw new DownloadFailed('TOO_LARGE', `the source is ${bytesTotal} bytes, over the ${options.maxBytes}-byte limit`);
  }
  options.onResponse?.({ bytesTotal });
  const guard = new BodyGuard(essence, options.maxBytes, options.onProgress);
  await pipeline(response, guard, createWriteStream(options.dest), { signal });
  return {
    bytes: guard.bytes,
    mediaType: essence,
    filename: dispositionFilename(response.headers['content-disposition']),
    finalUrl: url,
  };
}

/** Holds back the first bytes until they are sniffed, then counts and caps the rest. */
class BodyGuard extends Transform {
  bytes = 0;
  private head: Buffer[] = [];
  private headLength = 0;
  private sniffed = false;

  constructor(
    private readonly essence: string,
    private readonly maxBytes: number,
    private readonly onProgress?: (bytes: number) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      callback(new DownloadFailed('TOO_LARGE', `the source sent more than the ${this.maxBytes}-byte limit`));
      return;
    }
    this.onProgress?.(this.bytes);
    if (this.sniffed) {
      callback(null, chunk);
      return;
    }
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength >= SNIFF_BYTES) this.releaseHead(callback);
    else callback();
  }

  override _flush(callback: TransformCallback): void {
    if (!this.sniffed) this.releaseHead(callback);
    else callback();
  }

  private releaseHead(callback: TransformCallback): void {
    const head = Buffer.concat(this.head);
    this.head = [];
    this.sniffed = true;
    const problem = bodyRefusal(head.subarray(0, SNIFF_BYTES), this.essence);
    if (problem) callback(new DownloadFailed('NOT_VIDEO', problem));
    else callback(null, head);
  }
}

function dispositionFilename(header: string | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      return null;
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain ? plain[1]!.trim() : null;
}

function asDownloadFailure(error: unknown, cancel: AbortSignal, deadline: AbortSignal): DownloadFailed {
  if (error instanceof DownloadFailed) return error;
  if (error instanceof TargetRefused) return new DownloadFailed('TARGET_REFUSED', error.message);
  if (cancel.aborted) return new DownloadFailed('CANCELLED', 'the import was cancelled');
  if (deadline.aborted) return new DownloadFailed('TIMEOUT', 'the import took longer than the time allowed');
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return new DownloadFailed('NETWORK_ERROR', `the source could not be reached${code ? ` (${code})` : ''}`);
}
