import type { MediaApiClientOptions } from '../api-client/media-api-client.js';
import type { Clock } from '../common/clock.js';
import type { Log, SecretSink } from '../common/file-log.js';
import type { ShutdownPort } from '../common/shutdown.js';
import type { FollowPolicy } from '../conversions/conversion-transition.js';
import type { TokenVault } from '../storage/token-vault.js';
import type { FileSystemProbe } from '../common/file-system-kind.js';
import type { WriterProbe } from '../uploads/file-writers.js';
import type { TrashPort } from './ports.js';

export interface EngineOptions {
  /** the app's data folder: database, credentials */
  dataDir: string;
  clock?: Clock;
  vault?: TokenVault;
  /** a token given by the environment (MEDIA_SYNC_TOKEN) for accounts with none stored */
  envToken?: string;
  chunkSize?: number;
  concurrency?: number;
  /** chunks of one file in flight (1–3) */
  chunksPerFile?: number;
  bandwidthBytesPerSecond?: number | null;
  /** per-request limits of every API client (tests shorten them) */
  client?: Pick<MediaApiClientOptions, 'timeouts' | 'noProgressTimeoutMs' | 'uploadHeadersTimeoutMs'>;
  /** settle window of watched folders */
  settleMs?: number;
  /** how often a watched folder's path is looked at, gone or back (30 s); tests shorten it */
  folderCheckMs?: number;
  /** how often the free space of the app's own disk is looked at while it is full (5 s); tests shorten it */
  dataDiskProbeMs?: number;
  /** how often a folder checked by polling is looked at (60 s; Settings set it once the app runs) */
  pollIntervalMs?: number;
  /** which folders' file systems give no change events (statfs); a test marks a local folder as a network share */
  fileSystemOf?: FileSystemProbe;
  /** who holds a file open for writing (Linux's /proc by default); a test scripts it */
  writers?: WriterProbe;
  /** how uploaded files are followed until their conversion is final (10 s → 2 min, 24 h); tests shorten it */
  followPolicy?: Partial<FollowPolicy>;
  /**
   * Where "Delete after upload" puts files: the shell's Trash (Electron's, or
   * the freedesktop.org one: system/freedesktop-trash.ts). Without one,
   * nothing is deleted: each file stays where it is, and the log says why.
   */
  trash?: TrashPort;
  /** an http(s) proxy for API traffic (settings: proxy) */
  proxyUrl?: string | null;
  /** better-sqlite3's native module built for this runtime (Electron's ABI differs from Node's) */
  nativeBinding?: string;
  /**
   * What the engine did and what went wrong, for the app's log: sign-ins,
   * refused tokens, finished and failed uploads, unreadable rows, watcher
   * errors. It is never handed a token (and a FileLog cuts out any anyway).
   */
  log?: Log;
  /**
   * Told every token the engine holds, before it is used: each one from the
   * vault or the environment at open, and each one given to signIn before
   * the request that checks it. A FileLog passed here cuts them out of
   * every line, whatever their shape.
   */
  secrets?: SecretSink;
  /** the app's stop: the engine closes in its `engine` phase */
  shutdown?: ShutdownPort;
}
