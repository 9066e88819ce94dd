import type { FastifyBaseLogger } from 'fastify';
import type { TokenPermission } from '../../src-shared/api/index.js';
import type { Clock } from '../clock.js';
import type { HlsConversions } from '../conversion/hls-conversions.js';
import type { DataPaths } from '../data-paths.js';
import type { AccountRow, AccountStore, TokenRecord } from '../db/accounts.js';
import type { FileStore } from '../db/files.js';
import type { RemoteImports } from '../remote/remote-imports.js';
import type { RemoteJobStore } from '../remote/remote-job-store.js';
import type { ChunkedUploads } from '../uploads/chunked-uploads.js';
import type { FileIngest } from '../uploads/file-ingest.js';
import type { FixedWindowRateLimiter } from './rate-limiter.js';
import type { BoundedLog, RequestLogEntry, UploadLogEntry } from './traffic-log.js';

/** The services the routes work with, built once per server. */
export interface ServerContext {
  clock: Clock;
  paths: DataPaths;
  accounts: AccountStore;
  files: FileStore;
  ingest: FileIngest;
  chunked: ChunkedUploads;
  conversions: HlsConversions;
  jobs: RemoteJobStore;
  imports: RemoteImports;
  limiter: FixedWindowRateLimiter;
  /** every request that reached the upload handler */
  uploadLog: BoundedLog<UploadLogEntry>;
  /** every /api/v1 request, refused ones included */
  requestLog: BoundedLog<RequestLogEntry>;
  bodyLimitBytes: number;
  log: FastifyBaseLogger;
  /** `<file_host>` of the file URLs; known once the server listens */
  fileHost: string;
}

export interface AuthContext {
  account: AccountRow;
  token: TokenRecord;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** the permission a route needs; routes without one are public */
    permission?: TokenPermission;
  }
}
