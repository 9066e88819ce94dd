import { join } from 'node:path';
import type { FileLog } from '../common/file-log.js';
import type { ShutdownPort } from '../common/shutdown.js';
import { DATABASE_FILE } from '../storage/database.js';
import { databaseProblem, type DatabaseProblem } from '../storage/database-problem.js';
import { AppCore } from './app-core.js';
import type { AppCoreOptions } from './app-core-options.js';
import { Engine } from './engine.js';
import type { EngineOptions } from './engine-options.js';

/** What a shell gives the core: its ports and settings (the engine is createCore's). */
export type ShellCoreOptions = Omit<AppCoreOptions, 'engine' | 'log' | 'shutdown'>;

export interface CreateCoreOptions {
  /** the data folder's database, tokens and trash */
  engine: Omit<EngineOptions, 'log' | 'secrets' | 'shutdown'>;
  /** the app's log (absent: a CLI command's core writes none); it also hides the tokens it learns */
  log?: FileLog;
  /** the app's stop: each part joins it in its phase (common/shutdown.ts) */
  shutdown: ShutdownPort;
  /**
   * A damaged database, said the shell's way (the desktop's dialog, serve's
   * repair page), which keeps it aside once the person asks: true opens the
   * fresh one, false stops the start (createCore answers null). Absent: the
   * problem is thrown, as any other that stops the start.
   */
  repair?: (problem: DatabaseProblem) => Promise<boolean>;
  /**
   * The shell's ports, asked once the database is open (what they start
   * runs only then); null stops the start (a desktop quitting meanwhile).
   */
  shell: () => Promise<ShellCoreOptions | null> | ShellCoreOptions | null;
}

/** What a CLI command's own core starts: `all` is the app's and the daemon's (AppCore.start). */
export type CoreRuns = 'all' | { demo: boolean; queue: boolean; sync: boolean };

export interface CreatedCore {
  /** the core; shells reach it through its contract (core-transport.ts) */
  core: AppCore;
  /**
   * Starts what the shell needs: everything (`all`), or for a command of the
   * CLI the demo account's server (it talks to the service), the upload
   * queue, and the watched folders, in that order.
   */
  start(runs: CoreRuns): Promise<void>;
  /** no account was ever added (one signed out is the person's choice): `serve` signs in to the demo server */
  neverSignedIn(): boolean;
}

/**
 * The one composition root: the engine on the data folder's database and
 * the AppCore over it, as the desktop app, `media-sync serve` and a CLI
 * command's own core build them.
 */
export async function createCore(
  options: CreateCoreOptions & { repair?: undefined; shell: () => ShellCoreOptions },
): Promise<CreatedCore>;
export async function createCore(options: CreateCoreOptions): Promise<CreatedCore | null>;
export async function createCore(options: CreateCoreOptions): Promise<CreatedCore | null> {
  const { log, shutdown } = options;
  const engine = await openEngine({ ...options.engine, log, secrets: log, shutdown }, options.repair);
  if (!engine) return null;
  const shell = await options.shell();
  if (!shell) return null;
  const core = new AppCore({ ...shell, engine, log, shutdown });
  // its first tray menu and notification in its language: a catalog not in memory (German) is loaded first
  await core.language.ready;
  return {
    core,
    async start(runs) {
      if (runs === 'all') return core.start();
      if (runs.demo) await shell.demo?.startIfSignedIn(engine);
      if (runs.queue) engine.queue.start();
      if (runs.sync) await engine.sync.start();
    },
    neverSignedIn: () => engine.accounts.all().length === 0,
  };
}

async function openEngine(options: EngineOptions, repair: CreateCoreOptions['repair']): Promise<Engine | null> {
  for (;;) {
    try {
      return await Engine.open(options);
    } catch (error) {
      if (!repair) throw error;
      const problem = databaseProblem(error, join(options.dataDir, DATABASE_FILE));
      if (problem?.kind !== 'damaged') throw problem ?? error;
      options.log?.error(problem.message);
      if (!(await repair(problem))) return null;
    }
  }
}
