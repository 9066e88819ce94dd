import type { ContractTransport } from '../../src-shared/ipc/contract-client.js';
import type { AppCore } from './app-core.js';

/**
 * The contract to a core in this process: what a client that runs its own
 * core talks through (the CLI while it holds the data folder, tests), so it
 * calls `invoke` exactly as it would over a socket. The core parses each
 * request as it does one from any transport.
 */
export function coreTransport(core: Pick<AppCore, 'handle' | 'onDidEmit'>): ContractTransport {
  return {
    send: (name, request) => core.handle(name, request),
    onEvent: (listener) => {
      const subscription = core.onDidEmit(({ name, payload }) => listener(name, payload));
      return () => subscription.dispose();
    },
  };
}
