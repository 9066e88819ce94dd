import { resolve } from 'node:path';
import { byteSize, chunkSizeFlag, parseCommandLine } from './cli-args.js';
import { UsageError, describeError, line, type CliIo } from './cli-output.js';
import type { CommandGroup } from './command-context.js';
import { DatabaseProblem } from '../storage/database-problem.js';
import { resolveDataDir } from './data-dir.js';
import type { CliContract, OpenContractOptions } from './open-contract.js';

/**
 * What a private file is on the service: its page and watch links open for
 * anyone who has them (docs/reference-server.md). Said in the help, and to
 * whoever passes --private.
 */
export const PRIVATE_MEANS =
  'Private: not listed publicly; anyone with the link can open it. Add a password (files edit ID --password-stdin) to keep it to yourself.';

const USAGE = `Usage: media-sync <command> [options]

  login --base-url URL [--plan free|premium]   sign in; the token is read from stdin or MEDIA_SYNC_TOKEN
  logout                                       sign out: the token is deleted; folders and queue wait for the account
  account                                      the account summary
  upload FILE... [--public|--private] [--name N] [--description D] [--allow-online-watch|--no-online-watch] [--force]
  watch DIR... [--once] [--public] [--only-new] [--skip-existing] [--no-subfolders] [--after keep|delete|move:SUBFOLDER] [--ignore GLOB]...
              [--settle 3s|2m|recordings] [--poll]   how long a file must stay unchanged; check by polling
              [--notify every|batch|problems|never]   what its uploads tell you (default: a summary per batch)
              [--types videos,pictures,audio|everything] [--ext mov,mp4] [--min-size 1MB] [--max-size 4GB]
              [--modified-after 2026-01-01]   which files the folder takes
              [--dry-run]   says what would be uploaded and left alone; queues nothing, watches nothing
  folders [ls] | pause ID | resume ID | rescan ID   the watched folders, their state and counts
  folders move ID                              a folder whose account is signed out uploads to the signed-in account
  why PATH                                     why a file did or did not upload: its folder, rule, upload, what to do
  queue ls | pause [ID] [--for 2h|8h|24h] [--after-chunk] | resume [ID] | retry ID | cancel ID | clear
  files ls [--search S] [--page N] [--per-page 25|50|100]
  files show ID | status ID | rm ID
  files edit ID [--name N] [--description D] [--public|--private] [--allow-online-watch|--no-online-watch]
                [--password-stdin | --remove-password]
  import URL... [--name N] [--description D] [--public|--private] [--folder-id N] [--blocked-countries US,DE] [--wait]
  jobs ls [--page N] | show ID | cancel ID | retry ID
  support-file [--days N] [--include-names] [--out FILE]
                                               a zip of the last N days of logs (3), settings, folders, queue
                                               and last requests for a support request: no tokens, keys or
                                               passwords; file and folder names replaced unless --include-names
  repair                                       a damaged database: keep it aside, start a fresh one with what
                                               can be read (no Media Sync may run on the data folder meanwhile)

  serve [--port N] [--open] [--data-dir DIR] [--no-demo] [--new-key]
                                               the whole app in your browser, on 127.0.0.1 (media-sync serve --help)

Global options: --json (machine-readable output), --data-dir DIR (or MEDIA_SYNC_HOME),
  --bandwidth BYTES_PER_SECOND (upload limit, e.g. 5MB), --chunk-size BYTES (1MB to 90MB, default 90MB)

While the desktop app or media-sync serve runs on the data folder, every command goes through it:
its account, its queue, its watched folders (--bandwidth and --chunk-size are then its settings').

Ctrl+C or SIGTERM stops within 5 s, keeping every acknowledged chunk: upload then exits
130 (SIGINT) or 143 (SIGTERM) and the same command resumes it; watch exits 0, its folders stay watched.

${PRIVATE_MEANS} --public lists a file publicly.`;

/**
 * Each command's group, loaded only when it runs (a group's module and what
 * it imports are a chunk of the bundle of their own), and what a core of the
 * command's own must start.
 */
const COMMANDS: Record<
  string,
  { group: () => Promise<CommandGroup> } & Pick<OpenContractOptions, 'runs' | 'reachesService'>
> = {
  login: { group: () => import('./commands/account.js'), runs: 'nothing', reachesService: false },
  logout: { group: () => import('./commands/account.js'), runs: 'nothing', reachesService: false },
  account: { group: () => import('./commands/account.js'), runs: 'nothing', reachesService: true },
  upload: { group: () => import('./commands/upload.js'), runs: 'queue', reachesService: true },
  watch: { group: () => import('./commands/watch.js'), runs: 'sync', reachesService: true },
  folders: { group: () => import('./commands/folders.js'), runs: 'nothing', reachesService: false },
  queue: { group: () => import('./commands/queue.js'), runs: 'nothing', reachesService: false },
  why: { group: () => import('./commands/why.js'), runs: 'nothing', reachesService: true },
  files: { group: () => import('./commands/files.js'), runs: 'nothing', reachesService: true },
  import: { group: () => import('./commands/imports.js'), runs: 'nothing', reachesService: true },
  jobs: { group: () => import('./commands/imports.js'), runs: 'nothing', reachesService: true },
  'support-file': { group: () => import('./commands/support.js'), runs: 'nothing', reachesService: false },
};

/**
 * Runs one command line; returns the exit code (0 ok, 1 failed, 2 usage,
 * 130/143 for an upload a signal stopped). Never throws. Whoever owns the
 * data folder (open-contract.ts), the command runs the same contract calls
 * and prints the same.
 */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  let contract: CliContract | undefined;
  try {
    const { values: flags, positionals } = parseCommandLine(args);
    const [command, ...rest] = positionals;
    if (flags.help || !command) {
      line(flags.help ? io.stdout : io.stderr, USAGE);
      return flags.help ? 0 : 2;
    }
    const dataDir = resolve(resolveDataDir(flags['data-dir'], io.env));
    // no contract: the core cannot start on a damaged database
    if (command === 'repair') {
      if (rest.length > 0) throw new UsageError('media-sync repair takes no arguments.');
      return await (await import('./repair.js')).repair(dataDir, io);
    }
    const entry = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (!entry) throw new UsageError(`Unknown command "${command}".`);
    const [group, open] = await Promise.all([entry.group(), import('./open-contract.js')]);
    // `watch --dry-run` only counts: no queue, no watcher, no service
    const dryRun = command === 'watch' && flags['dry-run'] === true;
    contract = await open.openContract({
      dataDir,
      command,
      io,
      runs: dryRun ? 'nothing' : entry.runs,
      reachesService: dryRun ? false : entry.reachesService,
      bandwidthBytesPerSecond: byteSize(flags.bandwidth, 'bandwidth'),
      chunkSizeBytes: chunkSizeFlag(flags['chunk-size']),
    });
    if (contract.mode === 'beside' && (flags.bandwidth !== undefined || flags['chunk-size'] !== undefined)) {
      const note = 'apply only when this command runs the queue itself; the Media Sync that owns the data folder';
      line(io.stderr, `Note: --bandwidth and --chunk-size ${note} uploads with its own settings.`);
    }
    if (flags.private && !flags.json) line(io.stderr, PRIVATE_MEANS);
    return await group.run(command, rest, { contract, flags, io });
  } catch (error) {
    line(io.stderr, `Error: ${describeError(error)}`);
    if (error instanceof UsageError) line(io.stderr, 'Run media-sync --help for the commands.');
    if (error instanceof DatabaseProblem && error.kind === 'damaged') {
      line(io.stderr, 'To do that, stop any Media Sync on this data folder and run: media-sync repair');
    }
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await contract?.close().catch(() => undefined);
  }
}

/** For bin/media-sync.js: the data folder `serve` uses when none is given. */
export { resolveDataDir } from './data-dir.js';
