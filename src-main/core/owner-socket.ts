import { chmod, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import type { WsEvent } from '../../src-shared/ipc/ws-protocol.js';
import type { Log } from '../common/file-log.js';
import type { ShutdownPort } from '../common/shutdown.js';
import type { AppCore } from './app-core.js';
import { answerFrame } from './contract-frames.js';
import { lineReader, ownerSocketPath } from './owner-socket-path.js';

export interface OwnerSocket {
  readonly path: string;
  close(): Promise<void>;
}

/**
 * The contract of the UI for other Media Sync processes on this machine (the
 * CLI while the app or the daemon owns the data folder): one JSON message per
 * line, `{id, name, request}` answered by `{id, result}`, and every event of
 * the core as `{event, payload}`, as on the daemon's WebSocket. Started only
 * by the holder of the data folder's lock, so a socket file left by a killed
 * owner can be removed first. Given the app's stop, it closes in its
 * `intake` phase, before the core.
 */
export async function serveOwnerSocket(
  core: Pick<AppCore, 'handle' | 'onDidEmit'>,
  dataDir: string,
  log?: Log,
  shutdown?: ShutdownPort,
): Promise<OwnerSocket> {
  const path = ownerSocketPath(dataDir);
  const connections = new Set<Socket>();
  const server = createServer((socket) => {
    connections.add(socket);
    const send = (message: unknown) => {
      if (socket.writable) socket.write(`${JSON.stringify(message)}\n`);
    };
    const subscription = core.onDidEmit(({ name, payload }) => send({ event: name, payload } satisfies WsEvent));
    socket.on(
      'data',
      lineReader(
        (text) => {
          if (text.trim() === '') return;
          answerFrame(core, text).then(send, (error: unknown) =>
            log?.error('The owner socket could not answer a message.', error),
          );
        },
        () => socket.destroy(),
      ),
    );
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      subscription.dispose();
      connections.delete(socket);
    });
  });
  if (process.platform !== 'win32') await rm(path, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  if (process.platform !== 'win32') await chmod(path, 0o600);
  const ownerSocket: OwnerSocket = {
    path,
    async close() {
      for (const socket of connections) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  shutdown?.onWillShutdown('intake', (e) => e.join(ownerSocket.close(), 'the owner socket'));
  return ownerSocket;
}
