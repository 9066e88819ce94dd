import { parseArgs, type ParseArgsConfig } from 'node:util';
import { resolve } from 'node:path';
import { z } from 'zod';
import {
  API_LIMITS,
  CreateRemoteUploadsBodySchema,
  FINAL_REMOTE_JOB_STATUSES,
  PLANS,
  describeErrorValue,
  isPublicVisibility,
  type MediaFile,
  type RemoteJob,
} from '../../src-shared/api/index.js';
import { FINAL_UPLOAD_KINDS, type UploadItem, type UploadMetadata } from '../../src-shared/model/upload-state.js';
import type { MediaApiClient } from '../api-client/media-api-client.js';
import { Engine } from '../core/engine.js';
import { formatBytes } from '../../src-shared/model/format.js';
import { resolveDataDir } from './data-dir.js';
import {
  ProgressView,
  UsageError,
  describeError,
  describeState,
  line,
  table,
  type CliIo,
  type ShownItem,
} from './cli-output.js';
import { OwnerClient } from './owner-client.js';
import { listenForStop, signalExitCode, whenAborted } from './stop-signal.js';
import { describeOwner, tryLockDataFolder, type DataFolderLock, type Owner } from '../storage/data-folder-lock.js';
import type { AccountView, QueueStatus, UploadItemView } from '../../src-shared/ipc/ipc-contract.js';
import type { QueueHold } from '../../src-shared/model/queue-hold.js';

const USAGE = `Usage: media-sync <command> [options]

  login --base-url URL [--plan free|premium]   sign in; the token is read from stdin or MEDIA_SYNC_TOKEN
  logout                                       forget the account and its token
  account                                      the account summary
  upload FILE... [--public|--private] [--name N] [--description D] [--allow-online-watch|--no-online-watch] [--force]
  watch DIR... [--once] [--public] [--only-new] [--skip-existing] [--no-subfolders] [--after keep|delete|move:SUBFOLDER] [--ignore GLOB]...
  queue ls | pause [ID] [--for 2h|8h|24h] | resume [ID] | retry ID | cancel ID | clear
  files ls [--search S] [--page N] [--per-page N]
  files show ID | status ID | rm ID
  files edit ID [--name N] [--description D] [--public|--private] [--allow-online-watch|--no-online-watch]
                [--password-stdin | --remove-password]
  import URL... [--name N] [--description D] [--public|--private] [--folder-id N] [--blocked-countries US,DE] [--wait]
  jobs ls [--page N] | show ID | cancel ID | retry ID

Global options: --json (machine-readable output), --data-dir DIR (or MEDIA_SYNC_HOME),
  --bandwidth BYTES_PER_SECOND (upload limit, e.g. 5MB), --chunk-size BYTES (default 90000000)

Ctrl+C or SIGTERM stops within 5 s, keeping every acknowledged chunk: upload then exits
130 (SIGINT) or 143 (SIGTERM) and the same command resumes it; watch exits 0.`;

const OPTIONS = {
  json: { type: 'boolean' },
  'data-dir': { type: 'string' },
  'base-url': { type: 'string' },
  plan: { type: 'string' },
  public: { type: 'boolean' },
  private: { type: 'boolean' },
  name: { type: 'string' },
  description: { type: 'string' },
  'allow-online-watch': { type: 'boolean' },
  'no-online-watch': { type: 'boolean' },
  force: { type: 'boolean' },
  once: { type: 'boolean' },
  'only-new': { type: 'boolean' },
  'skip-existing': { type: 'boolean' },
  'no-subfolders': { type: 'boolean' },
  after: { type: 'string' },
  ignore: { type: 'string', multiple: true },
  for: { type: 'string' },
  search: { type: 'string' },
  page: { type: 'string' },
  'per-page': { type: 'string' },
  'password-stdin': { type: 'boolean' },
  'remove-password': { type: 'boolean' },
  'folder-id': { type: 'string' },
  'blocked-countries': { type: 'string' },
  wait: { type: 'boolean' },
  yes: { type: 'boolean' },
  bandwidth: { type: 'string' },
  'chunk-size': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsConfig['options'];

type Flags = ReturnType<typeof parse>['values'];

function parse(args: string[]) {
  try {
    return parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Runs one command line; returns the exit code (0 ok, 1 failed, 2 usage). Never throws. */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  let engine: Engine | undefined;
  let lock: DataFolderLock | undefined;
  try {
    const { values: flags, positionals } = parse(args);
    const [command, ...rest] = positionals;
    if (flags.help || !command) {
      line(flags.help ? io.stdout : io.stderr, USAGE);
      return flags.help ? 0 : 2;
    }
    const dataDir = resolve(resolveDataDir(flags['data-dir'], io.env));
    const attempt = tryLockDataFolder(dataDir, { kind: 'cli', url: null });
    if (attempt.ok) lock = attempt.lock;
    else if (!isReadOnly(command, rest)) return await besideOwner(command, rest, { flags, io, dataDir }, attempt.owner);
    else if (command === 'queue') {
      // the owner's own answer when it serves one: its hold (the schedule, the battery) lives in its memory
      const client = await OwnerClient.connect(dataDir);
      if (client) {
        try {
          return await queue(rest, { flags, io, dataDir }, ownerQueue(client));
        } finally {
          client.close();
        }
      }
    }
    engine = await Engine.open({
      dataDir,
      envToken: io.env['MEDIA_SYNC_TOKEN'],
      bandwidthBytesPerSecond: byteSize(flags.bandwidth, 'bandwidth') ?? null,
      chunkSize: chunkSize(flags['chunk-size']),
      // for tests and slow disks: how long a file must stay unchanged before it is uploaded
      settleMs: io.env['MEDIA_SYNC_SETTLE_MS'] ? Number(io.env['MEDIA_SYNC_SETTLE_MS']) : undefined,
    });
    const context: Context = { engine, flags, io, dataDir };
    return await dispatch(command, rest, context);
  } catch (error) {
    line(io.stderr, `Error: ${describeError(error)}`);
    if (error instanceof UsageError) line(io.stderr, 'Run media-sync --help for the commands.');
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await engine?.close().catch(() => undefined);
    lock?.release();
  }
}

/**
 * Commands that only read, which may run beside the process that owns the
 * data folder (SQLite lets readers in): they never run or change the queue.
 */
function isReadOnly(command: string, rest: string[]): boolean {
  if (command === 'queue') return (rest[0] ?? 'ls') === 'ls';
  return command === 'files' || command === 'jobs' || command === 'account';
}

/**
 * Another process owns the data folder and runs its queue. When it is the
 * app or the daemon, uploads and queue commands go to it over its owner
 * socket and show its answers; anything else that would change the queue is
 * refused, naming the owner.
 */
async function besideOwner(command: string, rest: string[], out: Out, owner: Owner | null): Promise<number> {
  const client = command === 'upload' || command === 'queue' ? await OwnerClient.connect(out.dataDir) : null;
  if (!client) {
    throw new Error(
      `${describeOwner(owner, out.dataDir)} Stop it before running media-sync ${command}, or use its window.`,
    );
  }
  try {
    if (command === 'upload') return await uploadThroughOwner(rest, out, client);
    return await queue(rest, out, ownerQueue(client));
  } finally {
    client.close();
  }
}

const UNITS: Record<string, number> = { '': 1, K: 1e3, KB: 1e3, M: 1e6, MB: 1e6, G: 1e9, GB: 1e9 };

/** `5MB`, `500K`, `90000000`: decimal units, like the spec's "90 MB". */
function byteSize(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*([KMG]B?)?$/i.exec(value.trim());
  const unit = UNITS[(match?.[2] ?? '').toUpperCase()];
  if (!match || unit === undefined) throw new UsageError(`--${flag} must be a size like 5MB or 500000.`);
  const bytes = Math.floor(Number(match[1]) * unit);
  if (bytes < 1) throw new UsageError(`--${flag} must be at least 1 byte.`);
  return bytes;
}

/** The spec's chunks are 90 MB; smaller ones suit slow links, larger ones would not pass the edge proxy. */
function chunkSize(value: string | undefined): number | undefined {
  const bytes = byteSize(value, 'chunk-size');
  if (bytes !== undefined && bytes > API_LIMITS.chunkSizeBytes) {
    throw new UsageError(`--chunk-size must be at most ${API_LIMITS.chunkSizeBytes} bytes (90 MB).`);
  }
  return bytes;
}

/** What printing an answer needs. */
interface Out {
  flags: Flags;
  io: CliIo;
  dataDir: string;
}

interface Context extends Out {
  engine: Engine;
}

async function dispatch(command: string, rest: string[], context: Context): Promise<number> {
  switch (command) {
    case 'login':
      return login(context);
    case 'logout':
      return logout(context);
    case 'account':
      return account(context);
    case 'upload':
      return upload(rest, context);
    case 'watch':
      return watch(rest, context);
    case 'queue':
      return queue(rest, context, localQueue(context.engine));
    case 'files':
      return files(rest, context);
    case 'import':
      return importUrls(rest, context);
    case 'jobs':
      return jobs(rest, context);
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

function output(context: Out, json: unknown, human: () => string): void {
  line(context.io.stdout, context.flags.json ? JSON.stringify(json) : human());
}

async function readStdin(io: CliIo): Promise<string> {
  if (io.stdin.isTTY) return '';
  const pieces: Buffer[] = [];
  for await (const piece of io.stdin) pieces.push(Buffer.from(piece as Buffer));
  return Buffer.concat(pieces).toString('utf8').trim();
}

// ---- account -----------------------------------------------------------------------

async function login(context: Context): Promise<number> {
  const baseUrl = context.flags['base-url'];
  if (!baseUrl) throw new UsageError('login needs --base-url, e.g. --base-url https://example.com/api/v1');
  const plan = context.flags.plan;
  if (plan !== undefined && !PLANS.some((p) => p === plan))
    throw new UsageError(`--plan must be one of ${PLANS.join(', ')}.`);
  const token = context.io.env['MEDIA_SYNC_TOKEN'] || (await readStdin(context.io));
  if (!token)
    throw new UsageError('No token: pipe it on stdin (media-sync login ... < token.txt) or set MEDIA_SYNC_TOKEN.');
  const { account, remote } = await context.engine.signIn(baseUrl, token, plan as (typeof PLANS)[number] | undefined);
  output(
    context,
    { account: { id: account.id, baseUrl: account.baseUrl, username: remote.username, plan: account.plan } },
    () =>
      `Signed in as ${remote.username} <${remote.email}> at ${account.baseUrl} (${account.plan} plan: files up to ${account.plan === 'free' ? '4' : '15'} GB).`,
  );
  return 0;
}

async function logout(context: Context): Promise<number> {
  const current = requireAccount(context);
  await context.engine.signOut(current.id);
  output(
    context,
    { signedOut: current.id },
    () => `Signed out of ${current.baseUrl}. The token was deleted from this computer.`,
  );
  return 0;
}

function requireAccount(context: Context) {
  const current = context.engine.defaultAccount();
  if (!current) throw new Error('Not signed in. Run: media-sync login --base-url URL < token.txt');
  return current;
}

function requireClient(context: Context): MediaApiClient {
  const current = requireAccount(context);
  const client = context.engine.client(current.id);
  if (!client) throw new Error('No token for this account. Run media-sync login again, or set MEDIA_SYNC_TOKEN.');
  return client;
}

async function account(context: Context): Promise<number> {
  const remote = await requireClient(context).getAccount();
  output(context, remote, () =>
    table([
      ['Username', remote.username],
      ['Email', remote.email],
      ['Files', String(remote.files)],
      ['Storage', formatBytes(remote.storage_bytes)],
      [
        'Imports',
        `${remote.remote_jobs.pending} pending, ${remote.remote_jobs.running} running, ${remote.remote_jobs.completed} completed, ${remote.remote_jobs.failed} failed`,
      ],
    ]),
  );
  return 0;
}

// ---- uploads -----------------------------------------------------------------------

function visibilityFlag(flags: Flags): boolean | undefined {
  if (flags.public && flags.private) throw new UsageError('Choose one of --public and --private.');
  return flags.public ? true : flags.private ? false : undefined;
}

function onlineWatchFlag(flags: Flags): boolean | undefined {
  if (flags['allow-online-watch'] && flags['no-online-watch'])
    throw new UsageError('Choose one of --allow-online-watch and --no-online-watch.');
  return flags['allow-online-watch'] ? true : flags['no-online-watch'] ? false : undefined;
}

function uploadMetadata(flags: Flags): UploadMetadata {
  const metadata: UploadMetadata = {};
  if (flags.name !== undefined) metadata.name = flags.name;
  if (flags.description !== undefined) metadata.description = flags.description;
  const watch = onlineWatchFlag(flags);
  if (watch !== undefined) metadata.allow_online_watch = watch;
  return metadata;
}

async function upload(paths: string[], context: Context): Promise<number> {
  if (paths.length === 0) throw new UsageError('upload needs at least one FILE.');
  const current = requireAccount(context);
  requireClient(context);
  const metadata = uploadMetadata(context.flags);
  const visibility = visibilityFlag(context.flags) ?? null;
  const stop = listenForStop();
  try {
    return await uploadHere(paths, context, { accountId: current.id, metadata, visibility }, stop.signal);
  } finally {
    stop.dispose();
  }
}

/** `upload` when this process owns the data folder: runs the queue here until the files settle or a signal stops it. */
async function uploadHere(
  paths: string[],
  context: Context,
  { accountId, metadata, visibility }: { accountId: string; metadata: UploadMetadata; visibility: boolean | null },
  stop: AbortSignal,
): Promise<number> {
  const { queue } = context.engine;
  const ids = new Set<number>();
  const results: UploadItem[] = [];
  for (const path of paths) {
    const { item, outcome } = await queue.enqueue({
      accountId,
      path,
      visibility,
      metadata,
      force: context.flags.force,
    });
    if (outcome === 'done') {
      results.push(item);
      if (!context.flags.json)
        line(
          context.io.stderr,
          `${item.fileName}: already uploaded as ${item.fileId} (use --force to upload it again)`,
        );
      continue;
    }
    if (outcome === 'resumed' && !context.flags.json)
      line(context.io.stderr, `${item.fileName}: resuming the upload started earlier`);
    ids.add(item.id);
  }
  const finished = await runUntilSettled(context, ids, stop);
  if (stop.aborted) {
    // runCli closes the engine next: the queue stops and the items wait in line with their chunks
    const name = stop.reason as NodeJS.Signals;
    line(
      context.io.stderr,
      `Stopped on ${name}: ${finished.filter((item) => item.state.kind !== 'done').length} upload(s) kept; run the same command to resume.`,
    );
    return signalExitCode(name);
  }
  results.push(...finished);
  return reportUploads(context, results);
}

/** The last word of `upload`: a line (or a JSON entry) per file; exit code 1 unless every one is done. */
function reportUploads(context: Out, results: ShownItem[]): number {
  output(context, { uploads: results.map(summary) }, () =>
    results.map((item) => `${item.fileName}: ${describeState(item)}`).join('\n'),
  );
  return results.every((item) => item.state.kind === 'done') ? 0 : 1;
}

function summary(item: ShownItem) {
  return {
    id: item.id,
    path: item.path,
    state: item.state,
    fileId: item.state.kind === 'done' ? item.state.fileId : null,
  };
}

/**
 * Runs the queue until each of `ids` is done, failed, cancelled, or waiting on
 * something a person must fix (a refused token), or until `stop`. Shows progress meanwhile.
 */
async function runUntilSettled(context: Context, ids: Set<number>, stop?: AbortSignal): Promise<UploadItem[]> {
  const { queue } = context.engine;
  const view = new ProgressView(context.io.stderr);
  const links = new Map<number, string>();
  const seen = new Map<number, UploadItem>();
  const subscriptions = [
    queue.onDidUpload(({ item, file }) => {
      if (file) links.set(item.id, file.urls.page);
    }),
    queue.onDidProgress(({ id, state }) => {
      if (!ids.has(id) || context.flags.json) return;
      // progress comes every MiB: read the item once, not at every event
      const item = seen.get(id) ?? queue.get(id);
      if (!item) return;
      seen.set(id, item);
      view.update({ ...item, state });
    }),
    queue.onDidChangeItem((item) => {
      if (!ids.has(item.id) || context.flags.json) return;
      if (item.state.kind === 'done' && item.state.existing)
        view.finish(item, `${item.fileName}: already on the service (${item.state.fileId}), not uploaded`);
      else if (item.state.kind === 'done')
        view.finish(item, `${item.fileName}: uploaded ${links.get(item.id) ?? item.state.fileId}`);
      if (item.state.kind === 'failed') view.finish(item, `${item.fileName}: ${describeState(item)}`);
      if (item.state.kind === 'retrying') view.finish(item, `${item.fileName}: ${describeState(item)}`);
    }),
  ];
  const stopped = stop ? whenAborted(stop) : new Promise<void>(() => undefined);
  queue.start();
  try {
    for (;;) {
      // a stop does not wait for chunks in flight: closing the engine aborts them, and their items keep what was acknowledged
      await Promise.race([queue.whenIdle(), stopped]);
      const items = [...ids].map((id) => queue.get(id)).filter((item): item is UploadItem => item !== undefined);
      if (stop?.aborted) return items;
      const blocked = blockedReason(context);
      if (blocked)
        throw new Error(
          `The server refused the token: ${blocked}. Uploads are kept; sign in again with a working token to go on.`,
        );
      const waiting = items.filter((item) => item.state.kind === 'retrying');
      if (waiting.length === 0) return items;
      // idle only because retries wait for their time: sleep until the first one
      const next = Math.min(...waiting.map((item) => (item.state.kind === 'retrying' ? item.state.retryAt : Infinity)));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise((resolveSleep) => (timer = setTimeout(resolveSleep, Math.max(0, next - Date.now()) + 10))),
        stopped,
      ]);
      clearTimeout(timer);
      queue.poke();
    }
  } finally {
    for (const subscription of subscriptions) subscription.dispose();
  }
}

function blockedReason(context: Context): string | null {
  const current = context.engine.defaultAccount();
  const blocked = current && context.engine.client(current.id)?.scheduler.state().blocked;
  return blocked ? `${blocked.message}${blocked.requestId ? ` (request id ${blocked.requestId})` : ''}` : null;
}

async function watch(dirs: string[], context: Context): Promise<number> {
  if (dirs.length === 0) throw new UsageError('watch needs at least one DIR.');
  const current = requireAccount(context);
  requireClient(context);
  const afterUpload = parseAfter(context.flags.after);
  const { engine } = context;
  engine.queue.start();
  const log = (text: string) => {
    if (!context.flags.json) line(context.io.stderr, text);
  };
  const uploaded: UploadItem[] = [];
  const subscription = engine.queue.onDidChangeItem((item) => {
    if (item.state.kind === 'done') {
      uploaded.push(item);
      log(`uploaded ${item.path} → ${item.state.fileId}`);
    } else if (item.state.kind === 'failed' || item.state.kind === 'retrying') {
      log(`${item.path}: ${describeState(item)}`);
    } else if (item.state.kind === 'queued') {
      log(`queued ${item.path}`);
    }
  });
  for (const dir of dirs) {
    // a DIR on the command line is relative to where the command runs; the app takes full paths only
    const folder = await engine.sync.addFolder(current.id, resolve(dir), {
      visibility: context.flags.public ? 'public' : 'private',
      includeSubfolders: !context.flags['no-subfolders'],
      uploadExisting: !context.flags['only-new'],
      skipExisting: context.flags['skip-existing'] ?? false,
      afterUpload,
      ignoreGlobs: context.flags.ignore ?? [],
    });
    log(`watching ${folder.path}`);
  }
  await engine.sync.start();
  if (context.flags.once) {
    await engine.sync.whenSettled();
    await runUntilSettled(
      context,
      new Set(
        engine.queue
          .list()
          .filter((i) => i.state.kind !== 'done')
          .map((i) => i.id),
      ),
    );
    subscription.dispose();
    output(context, { uploaded: uploaded.map(summary) }, () => `${uploaded.length} file(s) uploaded.`);
    return engine.queue.list().some((item) => item.state.kind === 'failed') ? 1 : 0;
  }
  log('Press Ctrl+C to stop.');
  const stop = listenForStop();
  await whenAborted(stop.signal);
  log(`Stopped on ${String(stop.signal.reason)}: uploads under way are kept and go on at the next start.`);
  subscription.dispose();
  return 0;
}

function parseAfter(value: string | undefined) {
  if (value === undefined || value === 'keep') return { kind: 'keep' as const };
  if (value === 'delete') return { kind: 'delete' as const };
  if (value.startsWith('move:') && value.length > 5) return { kind: 'move' as const, subfolder: value.slice(5) };
  throw new UsageError('--after must be keep, delete or move:SUBFOLDER.');
}

const PAUSE_PRESETS: Record<string, number> = { '2h': 2, '8h': 8, '24h': 24 };

/** The queue commands, over this process's own queue or over the owner's socket. */
interface QueuePort {
  /**
   * pausedUntil: null while running, Infinity when paused until resumed, else epoch ms;
   * hold: the app's own (the schedule's pause, the battery), apart from that
   */
  list(): Promise<{ items: ShownItem[]; pausedUntil: number | null; hold: QueueHold | null }>;
  pauseAll(hours: number | null): Promise<number | null>;
  /** the app's hold still in force, if any: resuming lifts only the person's pause */
  resumeAll(): Promise<QueueHold | null>;
  pause(id: number, hours: number | null): Promise<ShownItem | undefined>;
  resume(id: number): Promise<ShownItem | undefined>;
  retry(id: number): Promise<ShownItem | undefined>;
  cancel(id: number): Promise<ShownItem | undefined>;
  clearFinished(): Promise<number>;
}

const untilFor = (hours: number | null) => (hours === null ? null : Date.now() + hours * 3_600_000);

function localQueue(engine: Engine): QueuePort {
  const q = engine.queue;
  return {
    list: async () => ({ items: q.list(), ...q.status() }),
    pauseAll: async (hours) => {
      const until = untilFor(hours);
      await q.pauseAll(until);
      return until;
    },
    resumeAll: async () => {
      q.resumeAll();
      return q.status().hold;
    },
    pause: (id, hours) => q.pause(id, untilFor(hours)),
    resume: (id) => q.resume(id),
    retry: (id) => q.retry(id),
    cancel: (id) => q.cancel(id),
    clearFinished: async () => q.clearFinished(),
  };
}

function ownerQueue(client: OwnerClient): QueuePort {
  const item = (name: string, request: object) => client.invoke<UploadItemView>(name, request);
  const pausedUntil = (status: QueueStatus) => (status.paused ? (status.pausedUntil ?? Infinity) : null);
  return {
    list: async () => {
      const { items } = await client.invoke<{ items: UploadItemView[] }>('uploads:list', { offset: 0, limit: 10_000 });
      const status = await client.invoke<QueueStatus>('uploads:status');
      return { items, pausedUntil: pausedUntil(status), hold: status.hold ?? null };
    },
    pauseAll: async (hours) => {
      const status = await client.invoke<QueueStatus>('uploads:pauseAll', { hours });
      return Number.isFinite(pausedUntil(status)) ? status.pausedUntil : null;
    },
    resumeAll: async () => (await client.invoke<QueueStatus>('uploads:resumeAll')).hold ?? null,
    pause: (id, hours) => item('uploads:pause', { id, hours }),
    resume: (id) => item('uploads:resume', { id }),
    retry: (id) => item('uploads:retry', { id }),
    cancel: (id) => item('uploads:cancel', { id }),
    clearFinished: async () => (await client.invoke<{ removed: number }>('uploads:clearFinished')).removed,
  };
}

async function queue(rest: string[], context: Out, q: QueuePort): Promise<number> {
  const [action = 'ls', idText] = rest;
  const id = idText === undefined ? undefined : Number(idText);
  if (idText !== undefined && !Number.isInteger(id)) throw new UsageError(`Not an item id: ${idText}`);
  const needId = () => {
    if (id === undefined) throw new UsageError(`queue ${action} needs an item ID (see media-sync queue ls).`);
    return id;
  };
  const report = (item: ShownItem | undefined) => {
    if (!item) throw new Error(`No upload #${id}.`);
    output(context, summary(item), () => `#${item.id} ${item.fileName}: ${describeState(item)}`);
    return 0;
  };
  switch (action) {
    case 'ls': {
      const { items, pausedUntil, hold } = await q.list();
      output(context, { pausedUntil, hold, items: items.map(summary) }, () => {
        const head =
          (pausedUntil === null
            ? ''
            : `Queue paused${Number.isFinite(pausedUntil) ? ` until ${new Date(pausedUntil).toLocaleString()}` : ''}.\n`) +
          (hold ? `${holdText(hold)}\n` : '');
        if (items.length === 0) return `${head}The queue is empty.`;
        return (
          head + table(items.map((item) => [`#${item.id}`, item.fileName, formatBytes(item.size), describeState(item)]))
        );
      });
      return 0;
    }
    case 'pause': {
      const hours = context.flags.for === undefined ? null : PAUSE_PRESETS[context.flags.for];
      if (hours === undefined) throw new UsageError('--for must be 2h, 8h or 24h.');
      if (id !== undefined) return report(await q.pause(id, hours));
      const until = await q.pauseAll(hours);
      output(context, { pausedUntil: until }, () =>
        until === null ? 'Uploads paused until resumed.' : `Uploads paused until ${new Date(until).toLocaleString()}.`,
      );
      return 0;
    }
    case 'resume':
      if (id !== undefined) return report(await q.resume(id));
      {
        const hold = await q.resumeAll();
        output(context, { pausedUntil: null, hold }, () =>
          hold ? `Uploads resumed, but they still wait: ${holdText(hold)}` : 'Uploads resumed.',
        );
      }
      return 0;
    case 'retry':
      return report(await q.retry(needId()));
    case 'cancel':
      return report(await q.cancel(needId()));
    case 'clear': {
      const removed = await q.clearFinished();
      output(context, { removed }, () => `Removed ${removed} finished item(s).`);
      return 0;
    }
    default:
      throw new UsageError(`Unknown queue action "${action}".`);
  }
}

/**
 * `upload` while the app or the daemon owns the data folder: the files join
 * its queue (paths made absolute here: it runs elsewhere), and this command
 * shows their progress from its events until each is done, failed or
 * cancelled, or its queue is paused.
 */
async function uploadThroughOwner(paths: string[], context: Out, client: OwnerClient): Promise<number> {
  if (paths.length === 0) throw new UsageError('upload needs at least one FILE.');
  const [current] = await client.invoke<AccountView[]>('account:list');
  if (!current) throw new Error('Not signed in. Sign in in the Media Sync window first.');
  const view = new ProgressView(context.io.stderr);
  const latest = new Map<number, UploadItemView>();
  const ids = new Set<number>();
  let paused = false;
  let wake = () => undefined as void;
  const isFinal = (item: UploadItemView | undefined) => item !== undefined && FINAL_UPLOAD_KINDS.has(item.state.kind);
  const settled = () => paused || (ids.size > 0 && [...ids].every((id) => isFinal(latest.get(id))));
  const show = (item: UploadItemView) => {
    latest.set(item.id, item);
    if (!ids.has(item.id) || context.flags.json) return;
    if (isFinal(item)) view.finish(item, `${item.fileName}: ${describeState(item)}`);
    else view.update(item);
  };
  // subscribed before the files are added: a small file can be done before the answer comes
  const subscription = client.onEvent(({ name, payload }) => {
    if (name === 'uploads:itemChanged') show(payload as UploadItemView);
    if (name === 'uploads:progress') {
      for (const { id, state } of payload as Array<Pick<UploadItemView, 'id' | 'state'>>) {
        const item = latest.get(id);
        if (item) show({ ...item, state });
      }
    }
    if (name === 'uploads:statusChanged') paused = (payload as QueueStatus).paused;
    wake();
  });
  try {
    const added = await client.invoke<UploadItemView[]>('uploads:addPaths', {
      accountId: current.id,
      paths: paths.map((path) => resolve(path)),
      visibility: visibilityFlag(context.flags),
      metadata: uploadMetadata(context.flags),
      force: context.flags.force ?? false,
    });
    for (const item of added) {
      ids.add(item.id);
      if (!latest.has(item.id) || isFinal(item)) show(item);
    }
    paused = (await client.invoke<QueueStatus>('uploads:status')).paused;
    while (!settled()) await new Promise<void>((resolveWake) => (wake = resolveWake));
  } finally {
    subscription.dispose();
  }
  const results = [...ids].map((id) => latest.get(id)!);
  if (paused && !context.flags.json) {
    line(context.io.stderr, 'The queue of the Media Sync that owns this data folder is paused; the files wait there.');
  }
  return reportUploads(context, results);
}

// ---- files -------------------------------------------------------------------------

function intFlag(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new UsageError(`--${name} must be a whole number of at least 1.`);
  return parsed;
}

function fileRow(file: MediaFile): string[] {
  return [
    file.id,
    file.name,
    formatBytes(file.size_bytes),
    isPublicVisibility(file.visibility) ? 'public' : 'private',
    file.password_protected ? 'password' : '',
    `${file.downloads} dl`,
    `${file.stream_views} views`,
  ];
}

async function files(rest: string[], context: Context): Promise<number> {
  const [action = 'ls', id] = rest;
  const client = requireClient(context);
  const needId = () => {
    if (!id) throw new UsageError(`files ${action} needs a file ID.`);
    return id;
  };
  switch (action) {
    case 'ls': {
      const page = await client.listFiles({
        search: context.flags.search,
        page: intFlag(context.flags.page, 'page'),
        per_page: intFlag(context.flags['per-page'], 'per-page'),
      });
      output(context, page, () => {
        if (page.data.length === 0) return 'No files.';
        const meta = page.meta
          ? `\nPage ${page.meta.current_page} of ${page.meta.last_page} (${page.meta.total} files)`
          : '';
        return table(page.data.map(fileRow)) + meta;
      });
      return 0;
    }
    case 'show': {
      const file = await client.getFile(needId());
      output(context, file, () =>
        table([
          ['ID', file.id],
          ['Name', file.name],
          ['Stored as', file.filename],
          ['Type', file.mime],
          ['Size', formatBytes(file.size_bytes)],
          ['Visibility', isPublicVisibility(file.visibility) ? 'public' : 'private'],
          ['Password', file.password_protected ? 'yes' : 'no'],
          ['Online watch', file.allow_online_watch ? 'allowed' : 'not allowed'],
          ['Downloads', String(file.downloads)],
          ['Stream views', String(file.stream_views)],
          ['Page', file.urls.page],
          ['Watch', file.urls.watch],
          ['Embed', file.urls.embed],
          ...(file.description ? [['Description', file.description]] : []),
        ]),
      );
      return 0;
    }
    case 'status': {
      const status = await client.getFileStatus(needId());
      output(context, status, () => {
        const c = status.conversion;
        if (!c) return `${status.file.name}: no conversion.`;
        const error = describeErrorValue(c.error);
        return `${status.file.name}: ${c.status} (${c.stage}), attempt ${c.attempts}, updated ${c.updated_at}${error ? `\n${error}` : ''}`;
      });
      return 0;
    }
    case 'edit': {
      const body: Record<string, unknown> = {};
      if (context.flags.name !== undefined) body['name'] = context.flags.name;
      if (context.flags.description !== undefined) body['description'] = context.flags.description || null;
      const visibility = visibilityFlag(context.flags);
      if (visibility !== undefined) body['visibility'] = visibility;
      const watchFlag = onlineWatchFlag(context.flags);
      if (watchFlag !== undefined) body['allow_online_watch'] = watchFlag;
      if (context.flags['remove-password']) body['password'] = null;
      if (context.flags['password-stdin']) body['password'] = await readStdin(context.io);
      if (Object.keys(body).length === 0)
        throw new UsageError('files edit needs something to change (--name, --description, --public, ...).');
      const fileId = needId();
      await client.updateFile(fileId, body);
      output(
        context,
        { updated: fileId, fields: Object.keys(body) },
        () => `Updated ${fileId}: ${Object.keys(body).join(', ')}.`,
      );
      return 0;
    }
    case 'rm': {
      const fileId = needId();
      await client.deleteFile(fileId);
      output(context, { deleted: fileId }, () => `Deleted ${fileId}.`);
      return 0;
    }
    default:
      throw new UsageError(`Unknown files action "${action}".`);
  }
}

// ---- remote imports ----------------------------------------------------------------

function jobRow(job: RemoteJob): string[] {
  const progress = job.progress_percent === null ? '' : `${Math.round(job.progress_percent)}%`;
  const error = describeErrorValue(job.error);
  return [job.id, job.status, job.stage, progress, job.name, job.file_id ?? '', error ?? ''];
}

async function importUrls(urls: string[], context: Context): Promise<number> {
  if (urls.length === 0) throw new UsageError('import needs at least one URL.');
  const client = requireClient(context);
  const body = CreateRemoteUploadsBodySchema.safeParse({
    urls,
    name: context.flags.name,
    description: context.flags.description,
    visibility: visibilityFlag(context.flags),
    folder_id: context.flags['folder-id'] === undefined ? undefined : Number(context.flags['folder-id']),
    blocked_countries: context.flags['blocked-countries']
      ?.split(',')
      .map((code) => code.trim())
      .filter(Boolean),
  });
  if (!body.success) throw new UsageError(`Cannot import: ${z.prettifyError(body.error).replace(/\n/g, ' ')}`);
  let jobsList = await client.createRemoteUploads(body.data);
  if (context.flags.wait) {
    const deadline = Date.now() + 6 * 3_600_000;
    while (jobsList.some((job) => !FINAL_REMOTE_JOB_STATUSES.has(job.status)) && Date.now() < deadline) {
      await new Promise((resolveSleep) => setTimeout(resolveSleep, 2_000));
      jobsList = await Promise.all(
        jobsList.map((job) =>
          FINAL_REMOTE_JOB_STATUSES.has(job.status) ? job : client.getRemoteUpload(job.id, 'background'),
        ),
      );
    }
  }
  output(context, { jobs: jobsList }, () => table(jobsList.map(jobRow)));
  return context.flags.wait && jobsList.some((job) => job.status !== 'completed') ? 1 : 0;
}

async function jobs(rest: string[], context: Context): Promise<number> {
  const [action = 'ls', id] = rest;
  const client = requireClient(context);
  const needId = () => {
    if (!id) throw new UsageError(`jobs ${action} needs a job ID.`);
    return id;
  };
  const show = (job: RemoteJob) => {
    output(context, job, () => table([jobRow(job)]));
    return 0;
  };
  switch (action) {
    case 'ls': {
      const page = await client.listRemoteUploads({ page: intFlag(context.flags.page, 'page') });
      output(context, page, () => (page.data.length === 0 ? 'No imports.' : table(page.data.map(jobRow))));
      return 0;
    }
    case 'show':
      return show(await client.getRemoteUpload(needId()));
    case 'cancel':
    case 'retry': {
      const jobId = needId();
      const job = action === 'cancel' ? await client.cancelRemoteUpload(jobId) : await client.retryRemoteUpload(jobId);
      return show(job ?? (await client.getRemoteUpload(jobId)));
    }
    default:
      throw new UsageError(`Unknown jobs action "${action}".`);
  }
}

/** The app's own hold in a sentence, for the terminal. */
function holdText(hold: QueueHold): string {
  if (hold.reason === 'battery') return 'Paused while on battery (Settings → Schedule).';
  return hold.until === null
    ? 'Paused by the upload schedule.'
    : `Paused by the upload schedule until ${new Date(hold.until).toLocaleString()}.`;
}
