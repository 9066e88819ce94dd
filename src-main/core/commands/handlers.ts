import type { z } from 'zod';
import type { IPC_COMMANDS, IpcCommandName, IpcResponse } from '../../../src-shared/ipc/ipc-contract.js';

/** One command of the contract, on a request that has been parsed with its schema. */
export type CommandHandler<N extends IpcCommandName> = (
  request: z.output<(typeof IPC_COMMANDS)[N]['request']>,
) => Promise<IpcResponse<N>>;

/** Every command of the contract. */
export type Handlers = { [N in IpcCommandName]: CommandHandler<N> };

/** The commands of some namespaces of the contract (`uploads`, `files` …). */
export type HandlersOf<Namespace extends string> = {
  [N in Extract<IpcCommandName, `${Namespace}:${string}`>]: CommandHandler<N>;
};

/** The core's services by name: each group of commands takes the ones it uses, nothing else. */
export type { CoreServices } from '../services/core-services.js';

export const OK = { ok: true as const };
