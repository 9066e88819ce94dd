import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import multipart from '@fastify/multipart';
import Fastify, { LogController } from 'fastify';
import { API_PREFIX, TOKEN_PERMISSIONS } from '../src-shared/api/index.js';
import { systemClock } from './clock.js';
import { HlsConversions, findFfmpeg } from './conversion/hls-conversions.js';
import { DataPaths } from './data-paths.js';
import { describeMadePrivate } from './private-files.js';
import { AccountStore } from './db/accounts.js';
import { openDatabase, type Db } from './db/database.js';
import { FileStore } from './db/files.js';
import { fileHostRoutes } from './file-host/file-host-routes.js';
import { ApiProblem } from './http/api-problem.js';
import { apiGate } from './http/api-gate.js';
import type { ServerContext } from './http/context.js';
import { sendProblem, toProblem } from './http/error-handler.js';
import { FixedWindowRateLimiter } from './http/rate-limiter.js';
import {
  BoundedLog,
  logRequests,
  type RequestLogEntry,
  type TrafficLog,
  type UploadLogEntry,
} from './http/traffic-log.js';
import { ServerOptionsSchema, type ServerOptions, type ServerOptionsInput } from './options.js';
import { RemoteImports } from './remote/remote-imports.js';
import { RemoteJobStore } from './remote/remote-job-store.js';
import { systemResolver } from './remote/target-guard.js';
import { accountRoutes } from './routes/account-routes.js';
import { fileRoutes } from './routes/file-routes.js';
import { remoteUploadRoutes } from './routes/remote-upload-routes.js';
import { uploadRoutes } from './routes/upload-routes.js';
import { ChunkedUploads } from './uploads/chunked-uploads.js';
import { FileIngest } from './uploads/file-ingest.js';

/** A running reference server. */
export interface ReferenceServer {
  /** `http://host:port/api/v1` */
  baseUrl: string;
  /** `<file_host>` of file links: `http://host:port` */
  fileHost: string;
  /** the demo token, when this start created or found one */
  demoToken: string | null;
  /** whether uploaded videos get an HLS conversion (ffmpeg found) */
  conversions: boolean;
  accounts: AccountStore;
  /** the last 100,000 requests that reached the upload handler, for tests that count what arrived */
  uploadLog: TrafficLog<UploadLogEntry>;
  /** the last 100,000 /api/v1 requests with their status, refusals by the gate included */
  requestLog: TrafficLog<RequestLogEntry>;
  /** drops stale chunk sessions now instead of waiting for the hourly sweep */
  sweepStaleUploads(): Promise<number>;
  close(): Promise<void>;
}

/** Starts the reference Media File Service on `host:port` (port 0 picks a free one). */
export async function startReferenceServer(input: ServerOptionsInput): Promise<ReferenceServer> {
  const options: ServerOptions = {
    ...ServerOptionsSchema.parse(input),
    clock: input.clock ?? systemClock,
    resolveHost: input.resolveHost,
    logStream: input.logStream,
  };
  const paths = new DataPaths(options.dataDir);
  const madePrivate = paths.ensure();
  const db = openDatabase(paths.database);
  try {
    return await start(options, paths, db, describeMadePrivate(paths.root, madePrivate));
  } catch (error) {
    db.close();
    throw error;
  }
}

async function start(
  options: ServerOptions,
  paths: DataPaths,
  db: Db,
  madePrivate: string | null,
): Promise<ReferenceServer> {
  const app = Fastify({
    logger:
      options.logLevel === false
        ? false
        : {
            level: options.logLevel,
            stream: options.logStream ?? process.stderr,
            redact: ['req.headers.authorization'],
          },
    // Our own one-line access log below: no query strings (file passwords), no headers (tokens).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: true,
    // an address the router cannot decode (`/%`) is answered before any hook runs: the envelope all the same
    frameworkErrors: (error, request, reply) => {
      reply.header('X-Request-ID', request.id);
      return sendProblem(request, reply, toProblem(error, options.bodyLimitBytes));
    },
    // connections that never finish their headers must not pile up (Node checks every 30 s unless told)
    http: {
      headersTimeout: options.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, options.headersTimeoutMs),
    },
  });
  if (madePrivate) app.log.warn(madePrivate);
  if (options.allowPrivateTargets) {
    app.log.warn(
      '--allow-private-targets is on: remote imports may reach loopback and private networks. Never use this outside tests and local demos.',
    );
  }

  const clock = options.clock;
  const accounts = new AccountStore(db, clock);
  const files = new FileStore(db, clock);
  const tools = options.conversions === 'auto' ? findFfmpeg() : null;
  const conversions = new HlsConversions(db, paths, tools, clock, app.log, options.conversionRetryDelayMs);
  const ingest = new FileIngest(files, paths, (file) => {
    if (file.mime.startsWith('video/')) conversions.enqueue(file);
  });
  const jobs = new RemoteJobStore(db, clock);
  const imports = new RemoteImports(
    jobs,
    accounts,
    ingest,
    paths,
    {
      allowPrivate: options.allowPrivateTargets,
      allowedTargets: new Set(options.allowedTargets),
      resolve: options.resolveHost ?? systemResolver,
    },
    {
      concurrency: options.remoteConcurrency,
      maxBytes: options.remoteMaxBytes,
      deadlineMs: options.remoteDeadlineMs,
      idleTimeoutMs: options.remoteIdleTimeoutMs,
    },
    app.log,
  );
  const ctx: ServerContext = {
    clock,
    paths,
    accounts,
    files,
    ingest,
    chunked: new ChunkedUploads(db, files, ingest, paths, clock, {
      staleMs: options.staleUploadMs,
      maxUnfinished: options.maxUnfinishedUploads,
    }),
    conversions,
    jobs,
    imports,
    limiter: new FixedWindowRateLimiter(options.rateLimit, options.rateWindowMs, clock),
    uploadLog: new BoundedLog<UploadLogEntry>(),
    requestLog: new BoundedLog<RequestLogEntry>(),
    bodyLimitBytes: options.bodyLimitBytes,
    log: app.log,
    fileHost: '',
  };

  const demoToken = options.createDemoAccount ? await ensureDemoAccount(accounts, paths) : null;

  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-ID', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });
  app.setErrorHandler((error, request, reply) => {
    const problem = toProblem(error, options.bodyLimitBytes);
    if (problem.status >= 500) request.log.error({ err: error, requestId: request.id }, 'request failed');
    return sendProblem(request, reply, problem);
  });
  app.setNotFoundHandler((request, reply) => sendProblem(request, reply, ApiProblem.notFound('Route')));

  // Empty JSON bodies (a POST /cancel sent with a JSON content type) are no body, not an error.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, done);
  });

  await app.register(
    async (api) => {
      await api.register(multipart, {
        limits: { fileSize: options.bodyLimitBytes, files: 1, fields: 20, parts: 21, fieldSize: 4096 },
      });
      // Before the gate, so the requests it refuses are logged too.
      api.addHook('onRequest', logRequests(ctx.requestLog, clock));
      api.addHook('onRequest', apiGate(ctx));
      // The edge proxy refuses an oversized body from its Content-Length before reading it.
      api.addHook('onRequest', async (request) => {
        if (Number(request.headers['content-length'] ?? 0) > options.bodyLimitBytes)
          throw ApiProblem.tooLarge(options.bodyLimitBytes);
      });
      api.setNotFoundHandler((request, reply) => sendProblem(request, reply, ApiProblem.notFound('Route')));
      accountRoutes(api, ctx);
      fileRoutes(api, ctx);
      uploadRoutes(api, ctx);
      remoteUploadRoutes(api, ctx);
    },
    { prefix: API_PREFIX },
  );
  // A scope of its own: the password form's parser is no part of the API.
  await app.register(async (host) => fileHostRoutes(host, ctx));

  const sweep = () => ctx.chunked.sweep();
  ctx.chunked.recover();
  const address = await app.listen({ host: options.host, port: options.port });
  const listening = new URL(address);
  if (['0.0.0.0', '[::]'].includes(listening.hostname)) listening.hostname = '127.0.0.1';
  ctx.fileHost = (options.publicUrl ?? listening.origin).replace(/\/+$/, '');

  conversions.start();
  imports.start();
  const sweeper = setInterval(() => {
    sweep().catch((error: unknown) => app.log.error({ err: error }, 'stale upload sweep failed'));
  }, options.sweepIntervalMs);
  sweeper.unref();

  return {
    baseUrl: `${ctx.fileHost}${API_PREFIX}`,
    fileHost: ctx.fileHost,
    demoToken,
    conversions: conversions.enabled,
    accounts,
    uploadLog: ctx.uploadLog,
    requestLog: ctx.requestLog,
    sweepStaleUploads: sweep,
    async close() {
      clearInterval(sweeper);
      await app.close();
      await Promise.all([imports.stop(), conversions.stop()]);
      db.close();
    },
  };
}

/**
 * First start in a data dir: a demo account (free plan) with a token holding
 * every permission. The token is kept in a 0600 file of the data dir so each
 * later start can print it again: this is a local demo, not a production secret store.
 */
async function ensureDemoAccount(accounts: AccountStore, paths: DataPaths): Promise<string | null> {
  if (accounts.hasAccounts()) {
    const saved = await readFile(paths.demoToken, 'utf8').catch(() => null);
    return saved?.trim() || null;
  }
  const account = accounts.createAccount('demo', 'free');
  const token = accounts.createToken(account.id, { abilities: TOKEN_PERMISSIONS });
  await writeFile(paths.demoToken, `${token}\n`, { mode: 0o600 });
  return token;
}
