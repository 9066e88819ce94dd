import { setTimeout as sleep } from 'node:timers/promises';
import { contractClient, type ContractTransport } from '../../src-shared/ipc/contract-client.js';
import type { MediaSyncBridge } from '../../src-shared/ipc/ipc-contract.js';
import type { LocalCoreOptions } from './local-core.js';
import { OwnerSocketTransport } from './owner-transport.js';

/**
 * The contract as a command sees it, whoever owns the data folder: its own
 * core in this process, or the app's, the daemon's or another command's
 * through the owner socket. Commands call `invoke` and `on` the same way in
 * both cases.
 */
export interface CliContract extends MediaSyncBridge {
  /** `own`: this command holds the data folder and runs a core of its own; `beside`: another process does */
  readonly mode: 'own' | 'beside';
  /** resolves if the owner this command goes through stops; never while the command holds the folder itself */
  readonly gone: Promise<void>;
  close(): Promise<void>;
}

export interface OpenContractOptions extends LocalCoreOptions {
  /** the command's name, for the sentence that refuses it */
  command: string;
}

/** How long a command waits for an owner that answers on no socket: one starting up, or a short command. */
const WAIT_FOR_OWNER_MS = 5_000;

/**
 * Goes through the owner of the data folder when one answers on its socket;
 * otherwise takes the folder's lock and runs a core here. An owner that holds
 * the lock but answers on no socket yet is waited for a few seconds, then
 * named in the refusal.
 */
export async function openContract(options: OpenContractOptions): Promise<CliContract> {
  const deadline = Date.now() + WAIT_FOR_OWNER_MS;
  for (;;) {
    const socket = await OwnerSocketTransport.connect(options.dataDir);
    if (socket) {
      const gone = new Promise<void>((resolve) => socket.onGone(resolve));
      return contract(socket, 'beside', gone, async () => socket.close());
    }
    // the lock's module opens SQLite: loaded only when no owner answered
    const { describeOwner, tryLockDataFolder } = await import('../storage/data-folder-lock.js');
    const attempt = tryLockDataFolder(options.dataDir, { kind: 'cli', url: null });
    if (attempt.ok) {
      try {
        await import('./zod-jitless.js');
        const { openLocalCore } = await import('./local-core.js');
        const local = await openLocalCore(attempt.lock, options);
        return contract(local.transport, 'own', new Promise(() => undefined), local.close);
      } catch (error) {
        attempt.lock.release();
        throw error;
      }
    }
    if (Date.now() >= deadline) {
      throw new Error(
        `${describeOwner(attempt.owner, options.dataDir)} Stop it before running media-sync ${options.command}, or try again once it is done.`,
      );
    }
    await sleep(100);
  }
}

function contract(
  transport: ContractTransport,
  mode: CliContract['mode'],
  gone: Promise<void>,
  close: () => Promise<void>,
): CliContract {
  return { ...contractClient(transport), mode, gone, close };
}
