import * as z from 'zod';
import {
  API_PREFIX,
  AccountSchema,
  FileDetailSchema,
  FileSchema,
  FileStatusSchema,
  RemoteJobSchema,
  acceptedEnvelope,
  listEnvelope,
  successEnvelope,
  type Account,
  type FileStatus,
  type MediaFile,
  type MediaFileDetail,
  PaginationMetaSchema,
  type PaginationMeta,
  type RemoteJob,
} from '../../src-shared/api/index.js';
import type { FileChanges, ImportRequest, Visibility } from '../../src-shared/model/visibility.js';
import { ApiError, LooseErrorEnvelopeSchema } from './api-error.js';
import {
  DEFAULT_TIMEOUTS,
  createDispatcher,
  sendHttp,
  type LazyDispatcher,
  type TransportTimeouts,
} from './http-transport.js';
import { FileChangedError, multipartFileBody, type FileRange } from './multipart-body.js';
import { RequestLog } from './request-log.js';
import { RequestScheduler, type HttpResult, type Priority } from './request-scheduler.js';
import { isRetryableStatus } from './retry-policy.js';

export interface MediaApiClientOptions {
  /** ends with `/api/v1` */
  baseUrl: string;
  token: string;
  scheduler?: RequestScheduler;
  timeouts?: TransportTimeouts;
  /** an upload whose body has not moved for this long is abandoned (a stalled peer) */
  noProgressTimeoutMs?: number;
  /** the last chunk waits for the server to assemble the file */
  uploadHeadersTimeoutMs?: number;
  /** an http(s) proxy for every request; null or absent for a direct connection */
  proxyUrl?: string | null;
}

/** Paces an upload's body (the app's bandwidth limit): `take` resolves once `bytes` more may go. */
export interface UploadPacer {
  take(bytes: number, signal?: AbortSignal): Promise<void>;
}

/** The dz* fields of one chunk (spec: POST /files/upload, chunked). */
export interface ChunkInfo {
  dzuuid: string;
  index: number;
  totalChunks: number;
  chunkSize: number;
  totalSize: number;
  offset: number;
}

export interface UploadRequest {
  range: FileRange;
  /** sent as `visibility` 1/0; omitted when undefined (server default) */
  visibility?: Visibility;
  chunk?: ChunkInfo;
  /** false for a request that may complete a file: it is not blindly repeated */
  idempotent: boolean;
  signal?: AbortSignal;
  limiter?: UploadPacer;
  /** bytes of the file part handed to the socket so far in this request */
  onProgress?: (sentBytes: number) => void;
}

/**
 * What an upload answer told us. The spec does not show the upload response,
 * so any 2xx acknowledges; `fileId` is read from `data.id` when present.
 */
export interface UploadAck {
  status: number;
  fileId: string | null;
  file: MediaFile | null;
  /** the reference server's optional hint on a chunk that did not finish the file */
  receivedChunks: number | null;
  /** the answer's X-Request-ID, for a problem found in an answer that was a success */
  requestId: string | null;
}

export interface Page<T> {
  data: T[];
  meta: PaginationMeta | null;
}

export type ListQuery = {
  page?: number;
  per_page?: number;
};

const ChunkHintSchema = z.looseObject({
  received_chunks: z.array(z.int()).or(z.int()),
  total_chunks: z.int(),
});
const UploadDataSchema = z.looseObject({ id: z.string().min(1) });
const RemoteJobPageSchema = z.looseObject({
  success: z.literal(true),
  data: z.array(RemoteJobSchema),
  meta: z.unknown().optional(),
});

/**
 * How long a stopped upload whose body is all sent still waits for its
 * answer: well inside the 5 s a quit may take, far above a local answer.
 */
export const ANSWER_GRACE_MS = 1_500;

/**
 * A client for every endpoint of the Media File Service API v1. Every call
 * goes through the account's RequestScheduler; answers are parsed with the
 * `src-shared/api` schemas (loose: unknown fields are kept). Failures are
 * ApiErrors whose messages never contain the token.
 */
export class MediaApiClient {
  readonly baseUrl: string;
  readonly scheduler: RequestScheduler;
  /** the last requests' paths, statuses and ids, for a support file */
  readonly requests = new RequestLog();
  private token: string;
  private dispatcher: LazyDispatcher;
  private readonly timeouts: TransportTimeouts;
  private readonly noProgressTimeoutMs: number;
  private readonly uploadHeadersTimeoutMs: number;

  constructor(options: MediaApiClientOptions) {
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    this.token = options.token;
    this.scheduler = options.scheduler ?? new RequestScheduler();
    this.timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
    this.dispatcher = createDispatcher(this.timeouts, options.proxyUrl);
    this.noProgressTimeoutMs = options.noProgressTimeoutMs ?? 60_000;
    this.uploadHeadersTimeoutMs = options.uploadHeadersTimeoutMs ?? 10 * 60_000;
  }

  /** Use another token from now on; an account blocked by 401/403 goes again. */
  setToken(token: string): void {
    this.token = token;
    this.scheduler.unblock();
  }

  /** Send new requests through `proxyUrl` (null: directly); requests under way finish on the old route. */
  setProxy(proxyUrl: string | null): void {
    const previous = this.dispatcher;
    this.dispatcher = createDispatcher(this.timeouts, proxyUrl);
    void previous.close().catch(() => undefined);
  }

  async getAccount(priority: Priority = 'interactive'): Promise<Account> {
    return this.json('GET', '/account', successEnvelope(AccountSchema), { priority }).then((r) => r.data);
  }

  async listFiles(query: ListQuery & { search?: string } = {}, priority: Priority = 'interactive') {
    const result = await this.json('GET', `/files${queryString(query)}`, listEnvelope(FileSchema), { priority });
    return { data: result.data, meta: result.meta } satisfies Page<MediaFile>;
  }

  async getFile(id: string, priority: Priority = 'interactive'): Promise<MediaFileDetail> {
    const path = `/files/${encodeURIComponent(id)}`;
    return this.json('GET', path, successEnvelope(FileDetailSchema), { priority }).then((r) => r.data);
  }

  async getFileStatus(id: string, priority: Priority = 'interactive'): Promise<FileStatus> {
    const path = `/files/${encodeURIComponent(id)}/status`;
    return this.json('GET', path, successEnvelope(FileStatusSchema), { priority }).then((r) => r.data);
  }

  /** PATCH /files/{id}; the answer's body is not shown in the spec, so it is not relied on. */
  async updateFile(id: string, changes: FileChanges, priority: Priority = 'interactive'): Promise<void> {
    const body = withApiVisibility(changes);
    await this.json('PATCH', `/files/${encodeURIComponent(id)}`, z.unknown(), { body, priority });
  }

  async deleteFile(id: string, priority: Priority = 'interactive'): Promise<void> {
    await this.json('DELETE', `/files/${encodeURIComponent(id)}`, z.unknown(), { priority });
  }

  async createRemoteUploads(request: ImportRequest): Promise<RemoteJob[]> {
    // a repeated POST would start the imports twice
    const options = { body: withApiVisibility(request), idempotent: false };
    return this.json('POST', '/remote-uploads', acceptedEnvelope(RemoteJobSchema), options).then((r) => r.data);
  }

  async listRemoteUploads(query: ListQuery = {}, priority: Priority = 'interactive'): Promise<Page<RemoteJob>> {
    const result = await this.json('GET', `/remote-uploads${queryString(query)}`, RemoteJobPageSchema, { priority });
    // pagination of job lists is not shown in the spec: kept when it looks like the files' one
    return { data: result.data, meta: PaginationMetaSchema.safeParse(result.meta).data ?? null };
  }

  async getRemoteUpload(id: string, priority: Priority = 'interactive'): Promise<RemoteJob> {
    const path = `/remote-uploads/${encodeURIComponent(id)}`;
    return this.json('GET', path, successEnvelope(RemoteJobSchema), { priority }).then((r) => r.data);
  }

  /** The answer's body is not shown in the spec: the job is re-read when it is not a job. */
  async cancelRemoteUpload(id: string): Promise<RemoteJob | null> {
    return this.jobAction(id, 'cancel');
  }

  async retryRemoteUpload(id: string): Promise<RemoteJob | null> {
    return this.jobAction(id, 'retry');
  }

  /**
   * POST /files/upload for one file or one chunk, streamed from disk. Any 2xx
   * acknowledges; other answers and failures throw an ApiError, and a file
   * that changed while its range was read (`range.unchanged`) a
   * FileChangedError, the request cut off before its body ended. A request that
   * may finish a file (`idempotent: false`) is not repeated by the scheduler
   * once it may have reached the server: the caller looks for the file first.
   */
  async upload(request: UploadRequest): Promise<UploadAck> {
    const fields: Record<string, string> = {};
    if (request.visibility !== undefined) fields['visibility'] = request.visibility === 'public' ? '1' : '0';
    if (request.chunk) {
      const c = request.chunk;
      fields['dzuuid'] = c.dzuuid;
      fields['dzchunkindex'] = String(c.index);
      fields['dztotalchunkcount'] = String(c.totalChunks);
      fields['dzchunksize'] = String(c.chunkSize);
      fields['dztotalfilesize'] = String(c.totalSize);
      fields['dzchunkbyteoffset'] = String(c.offset);
    }
    const result = await this.scheduler.send(
      'upload',
      async ({ signal, onBytes }) => {
        const body = multipartFileBody(fields, request.range);
        // A stop (pause, quit) once the whole body is on its way waits a moment for the answer: a chunk the
        // server took is then known as taken, instead of being cut off between its answer and us and sent
        // again at the next start. Before that, it stops at once. A body that stalls stops it too.
        let bodySent = false;
        const stop = new AbortController();
        const timer = setTimeout(() => stop.abort(stalled(this.noProgressTimeoutMs)), this.noProgressTimeoutMs);
        let sent = 0;
        let grace: NodeJS.Timeout | undefined;
        const onStop = () => {
          if (!bodySent) return stop.abort(signal.reason);
          grace = setTimeout(() => stop.abort(signal.reason), ANSWER_GRACE_MS);
        };
        const beforePiece = async (bytes: number) => {
          await request.limiter?.take(bytes, signal);
          timer.refresh();
          sent += bytes;
          onBytes();
          request.onProgress?.(sent);
        };
        if (signal.aborted) onStop();
        else signal.addEventListener('abort', onStop, { once: true });
        try {
          // a small file's body in one buffer, written at once: undici's cheapest way (no iteration of pieces)
          const whole = await body.whole(beforePiece);
          bodySent = whole !== null;
          return await this.sendRaw({
            method: 'POST',
            path: '/files/upload',
            headers: { 'Content-Type': body.contentType, 'Content-Length': String(body.contentLength) },
            body: whole ?? body.stream(beforePiece, () => (bodySent = true)),
            signal: stop.signal,
            headersTimeoutMs: this.uploadHeadersTimeoutMs,
            onBytes: () => timer.refresh(),
          });
        } catch (error) {
          // the body stopped itself because the file changed: not the network's fault, and not to be sent again as is
          throw error instanceof ApiError && error.cause instanceof FileChangedError ? error.cause : error;
        } finally {
          clearTimeout(timer);
          clearTimeout(grace);
          signal.removeEventListener('abort', onStop);
        }
      },
      { idempotent: request.idempotent, signal: request.signal, blockOnDenied: true },
    );
    if (result.status < 200 || result.status >= 300) throw toError(result, 'POST /files/upload');
    const data = (result.body as { data?: unknown } | null)?.data;
    const file = FileSchema.safeParse(data);
    // the chunk count a server may answer a last chunk with: looked for only when there is one
    const hint = hasChunkHint(data) ? ChunkHintSchema.safeParse(data) : null;
    return {
      status: result.status,
      fileId: file.success ? file.data.id : (UploadDataSchema.safeParse(data).data?.id ?? null),
      file: file.success ? file.data : null,
      receivedChunks: hint?.success
        ? Array.isArray(hint.data.received_chunks)
          ? hint.data.received_chunks.length
          : hint.data.received_chunks
        : null,
      requestId: headerValue(result.headers['x-request-id']),
    };
  }

  /**
   * The file an upload made, when its answer was lost or carried no id: the
   * newest file named `fileName` with `size` bytes that is not `isKnown`
   * (files this app already knows). One GET /files?search= request.
   */
  async findUploadedFile(fileName: string, size: number, isKnown: (id: string) => boolean): Promise<MediaFile | null> {
    const page = await this.listFiles({ search: fileName.slice(0, 255), per_page: 100 }, 'upload');
    const matches = page.data.filter(
      (f) => (f.filename === fileName || f.name === fileName) && f.size_bytes === size && !isKnown(f.id),
    );
    return matches[0] ?? null;
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  private async jobAction(id: string, action: 'cancel' | 'retry'): Promise<RemoteJob | null> {
    const path = `/remote-uploads/${encodeURIComponent(id)}/${action}`;
    const result = await this.json('POST', path, z.looseObject({ data: z.unknown() }), { idempotent: false });
    return RemoteJobSchema.safeParse(result.data).data ?? null;
  }

  private async json<T extends z.ZodType>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    schema: T,
    options: { body?: unknown; priority?: Priority; idempotent?: boolean } = {},
  ): Promise<z.output<T>> {
    const what = `${method} ${path.split('?')[0]}`;
    const result = await this.scheduler.send(
      options.priority ?? 'interactive',
      ({ signal, onBytes }) =>
        this.sendRaw({
          method,
          path,
          headers: options.body === undefined ? {} : { 'Content-Type': 'application/json' },
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
          signal,
          onBytes,
        }),
      { idempotent: options.idempotent ?? method !== 'POST' },
    );
    if (result.status < 200 || result.status >= 300) throw toError(result, what);
    const parsed = schema.safeParse(result.body);
    if (!parsed.success) {
      throw new ApiError({
        status: result.status,
        code: 'BAD_RESPONSE',
        message: `The server's answer to ${what} is not what the API describes: ${z.prettifyError(parsed.error).split('\n')[0] ?? 'unreadable'}.`,
        retryable: false,
      });
    }
    return parsed.data;
  }

  private sendRaw(input: {
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
    path: string;
    headers: Record<string, string>;
    body?: string | Uint8Array | AsyncIterable<Uint8Array>;
    signal: AbortSignal;
    headersTimeoutMs?: number;
    onBytes?: () => void;
  }): Promise<HttpResult> {
    const answered = (result: HttpResult | null) => this.requests.record(input.method, input.path, result, Date.now());
    return sendHttp(
      this.dispatcher,
      {
        method: input.method,
        url: `${this.baseUrl}${input.path}`,
        headers: { Accept: 'application/json', Authorization: `Bearer ${this.token}`, ...input.headers },
        body: input.body,
        signal: input.signal,
        headersTimeoutMs: input.headersTimeoutMs,
        onBytes: input.onBytes,
      },
      this.token,
    ).then(
      (result) => {
        answered(result);
        return result;
      },
      (error: unknown) => {
        answered(null);
        throw error;
      },
    );
  }
}

function hasChunkHint(data: unknown): boolean {
  return typeof data === 'object' && data !== null && 'received_chunks' in data;
}

/** An ApiError from a non-2xx answer: the envelope's code, message and request id when there is one. */
function toError(result: HttpResult, what: string): ApiError {
  const envelope = LooseErrorEnvelopeSchema.safeParse(result.body);
  const retryable = result.status === 429 || isRetryableStatus(result.status);
  if (envelope.success) {
    return new ApiError({
      status: result.status,
      code: envelope.data.error.code,
      message: envelope.data.error.message,
      requestId: envelope.data.request_id ?? headerValue(result.headers['x-request-id']),
      retryable,
      details: envelope.data.error.details,
    });
  }
  return new ApiError({
    status: result.status,
    code: 'HTTP_ERROR',
    message: `${what} failed with HTTP ${result.status} and no error details.`,
    requestId: headerValue(result.headers['x-request-id']),
    retryable,
  });
}

function stalled(ms: number): ApiError {
  return new ApiError({
    status: null,
    code: 'TIMEOUT',
    message: `The upload made no progress for ${Math.round(ms / 1000)} s.`,
    retryable: true,
  });
}

function headerValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** A body with the app's Visibility, as the API takes it (PATCH /files, POST /remote-uploads: a boolean). */
function withApiVisibility<T extends { visibility?: Visibility }>({ visibility, ...rest }: T) {
  return visibility === undefined ? rest : { ...rest, visibility: visibility === 'public' };
}

function queryString(query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** `https://host/api/v1` with no trailing slash; anything else is a clear error now, not a 404 later. */
export function normaliseBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new Error(`Not a URL: ${JSON.stringify(input)}. Expected something like https://example.com${API_PREFIX}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`The base URL must start with http:// or https:// (got ${url.protocol}).`);
  }
  if (url.username || url.password) throw new Error('The base URL must not contain a user name or password.');
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith(API_PREFIX)) {
    throw new Error(`The base URL must end with ${API_PREFIX} (got ${url.origin}${path || '/'}).`);
  }
  return `${url.origin}${path}`;
}
