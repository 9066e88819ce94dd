import type { ContractTransport } from '../../src-shared/ipc/contract-client.js';
import { readSettings, type Settings } from '../../src-shared/model/settings.js';
import { Shutdown } from '../common/shutdown.js';
import { coreTransport } from '../core/core-transport.js';
import { localDemoServer } from '../demo/local-demo-server.js';
import { createCore } from '../core/create-core.js';
import { serveOwnerSocket } from '../core/owner-socket.js';
import { NO_DESKTOP, type SettingsStore } from '../core/ports.js';
import { JsonSettingsStore } from '../storage/json-settings-store.js';
import type { DataFolderLock } from '../storage/data-folder-lock.js';
import { openTokenVault } from '../storage/keyring-token-vault.js';
import { systemTrash } from '../system/freedesktop-trash.js';
import type { CliIo } from './cli-output.js';

/** What a core of a command's own runs, and with which limits. */
export interface LocalCoreOptions {
  dataDir: string;
  io: CliIo;
  /**
   * What a core of this command's own starts: `queue` runs the upload queue
   * (upload), `sync` the queue and the watched folders (watch), and either
   * answers other commands on the owner socket meanwhile; `nothing` answers
   * this command alone (the rest: a core that starts nothing reads the
   * database and talks to the service when asked)
   */
  runs: 'queue' | 'sync' | 'nothing';
  /** the command talks to the service: a core of its own starts the demo account's local server first */
  reachesService: boolean;
  /** this command line's limits, over the saved settings, when it runs the queue itself */
  bandwidthBytesPerSecond?: number;
  chunkSizeBytes?: number;
}

/**
 * The core of a command that holds the data folder: the engine and AppCore
 * as `media-sync serve` builds them (the same database, token files and
 * settings.json), without the daemon. It starts what the command needs and
 * nothing more: the upload queue for `upload`, the queue and the watched
 * folders for `watch`, nothing for the others (`files ls` reads no folder
 * and runs no queue). Following conversions and imports in the background
 * is the app's and the daemon's. While it runs the queue, other commands
 * reach it through the owner socket. A command that talks to the service
 * starts the local demo server first when the account is the demo one, as
 * the app would. What it started stops in the order of common/shutdown.ts.
 */
export async function openLocalCore(
  lock: DataFolderLock,
  options: LocalCoreOptions,
): Promise<{ transport: ContractTransport; close(): Promise<void> }> {
  const { dataDir, io } = options;
  const shutdown = new Shutdown();
  shutdown.onWillShutdown('release', () => lock.release());
  try {
    const vault = await openTokenVault({ dataDir, env: io.env });
    const settleMs = io.env['MEDIA_SYNC_SETTLE_MS'];
    const overrides: Partial<Settings> = {};
    if (options.bandwidthBytesPerSecond !== undefined)
      overrides.bandwidthBytesPerSecond = options.bandwidthBytesPerSecond;
    if (options.chunkSizeBytes !== undefined) overrides.chunkSizeBytes = options.chunkSizeBytes;
    const { core, start } = await createCore({
      engine: {
        dataDir,
        vault,
        envToken: io.env['MEDIA_SYNC_TOKEN'] || undefined,
        // for tests and slow disks: how long a file must stay unchanged before it is uploaded
        settleMs: settleMs ? Number(settleMs) : undefined,
        trash: systemTrash(process.platform, io.env),
      },
      shutdown,
      shell: () => ({
        settings: new CommandLineSettings(new JsonSettingsStore(dataDir), overrides),
        shell: NO_DESKTOP,
        info: { version: io.version ?? '0.0.0', shell: 'headless', dataDir },
        tokenStorage: vault.description,
        tokenStorageText: vault.descriptionText,
        // the demo account's server lives in this process while the command runs (loaded only for it)
        demo: localDemoServer(dataDir, undefined, shutdown),
      }),
    });
    await start({ demo: options.reachesService, queue: options.runs !== 'nothing', sync: options.runs === 'sync' });
    if (options.runs !== 'nothing') await serveOwnerSocket(core, dataDir, undefined, shutdown);
    return {
      transport: coreTransport(core),
      // the queue stops with it: chunks in flight are abandoned, every acknowledged one stays committed
      close: async () => void (await shutdown.run()),
    };
  } catch (error) {
    await shutdown.run();
    throw error;
  }
}

/**
 * The data folder's saved settings with this command line's own limits on
 * top (`--bandwidth`, `--chunk-size`), for this run only: a change saved
 * meanwhile keeps the saved values of those.
 */
class CommandLineSettings implements SettingsStore {
  constructor(
    private readonly saved: SettingsStore,
    private readonly overrides: Partial<Settings>,
  ) {}

  read(): unknown {
    const saved = this.saved.read();
    return { ...(typeof saved === 'object' && saved !== null ? saved : {}), ...this.overrides };
  }

  write(settings: Settings): void {
    const { settings: saved } = readSettings(this.saved.read());
    const kept = Object.fromEntries(Object.keys(this.overrides).map((key) => [key, saved[key as keyof Settings]]));
    this.saved.write({ ...settings, ...kept });
  }
}
