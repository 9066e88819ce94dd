import * as z from 'zod';
import type { Clock } from './clock.js';
import type { HostResolver } from './remote/target-guard.js';

const MIB = 1024 * 1024;
const HOUR_MS = 60 * 60 * 1000;

/**
 * What the reference server can be told. The CLI flags map onto the first
 * group; the rest exist for tests and embedding (the app's demo server).
 */
export const ServerOptionsSchema = z.object({
  host: z.string().default('127.0.0.1'),
  port: z.int().min(0).max(65535).default(8787),
  dataDir: z.string().min(1),
  /** requests per window per (token, IP) */
  rateLimit: z.int().min(1).default(60),
  rateWindowMs: z.int().min(1).default(60_000),
  /** lets remote imports reach loopback and private networks: tests and the local demo only */
  allowPrivateTargets: z.boolean().default(false),
  /** log level for stderr, or false for no log */
  logLevel: z.union([z.enum(['fatal', 'error', 'warn', 'info', 'debug']), z.literal(false)]).default('info'),
  /** creates a demo account and token on first start in an empty data dir */
  createDemoAccount: z.boolean().default(true),
  /** the address files are served from; defaults to the listening address */
  publicUrl: z.url().optional(),

  /** the edge proxy's cap on a whole request body (an upload chunk plus its multipart framing) */
  bodyLimitBytes: z
    .int()
    .min(1)
    .default(100 * MIB),
  /** a connection whose request headers are not all in by then gets 408 and is closed (Node's own is 60 s) */
  headersTimeoutMs: z.int().min(1).default(10_000),
  /** run HLS conversions when ffmpeg is on PATH ('auto') or never (false) */
  conversions: z.union([z.literal('auto'), z.literal(false)]).default('auto'),
  /** wait before a failed conversion is tried again (3 attempts in all) */
  conversionRetryDelayMs: z.int().min(0).default(5_000),
  /** chunks of an upload that never completes, and the memory of assembled uploads, are dropped after this */
  staleUploadMs: z
    .int()
    .min(1)
    .default(24 * HOUR_MS),
  sweepIntervalMs: z.int().min(1).default(HOUR_MS),
  /** chunked uploads an account may have unfinished at once; a new dzuuid past it is 422 */
  maxUnfinishedUploads: z.int().min(1).default(10),
  /** background import downloads running at once */
  remoteConcurrency: z.int().min(1).max(16).default(2),
  /** byte cap of one import on top of the account's plan limit */
  remoteMaxBytes: z.int().min(1).optional(),
  remoteDeadlineMs: z
    .int()
    .min(1)
    .default(2 * HOUR_MS),
  remoteIdleTimeoutMs: z.int().min(1).default(30_000),
  /** `ip:port` pairs the import guard lets through while it stays on (tests of redirects and sniffing) */
  allowedTargets: z.array(z.string()).default([]),
});

export type ServerOptionsInput = z.input<typeof ServerOptionsSchema> & {
  clock?: Clock;
  /** DNS for remote imports; tests give names their own addresses */
  resolveHost?: HostResolver;
  /** where the log goes instead of stderr; tests read what the server logged */
  logStream?: NodeJS.WritableStream;
};

export type ServerOptions = z.output<typeof ServerOptionsSchema> & {
  clock: Clock;
  resolveHost?: HostResolver;
  logStream?: NodeJS.WritableStream;
};
