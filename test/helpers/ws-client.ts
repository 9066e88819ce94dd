import { WebSocket } from 'ws';
import type { IpcResult } from '../../src-shared/ipc/ipc-contract.js';
import {
  sessionProtocols,
  WS_PATH,
  WsEventSchema,
  WsResultSchema,
  type WsEvent,
} from '../../src-shared/ipc/ws-protocol.js';

/** A test's side of the headless contract socket: invoke by name, collect events. */
export interface WsContractClient {
  invoke(name: string, request?: unknown): Promise<IpcResult<unknown>>;
  sendRaw(text: string): Promise<unknown>;
  events: WsEvent[];
  close(): void;
}

/** Opens the daemon's socket at `url` as the page does, presenting `key` in the handshake (null: no key). */
export async function connectContract(
  url: string,
  key: string | null,
  headers: Record<string, string> = {},
): Promise<WsContractClient> {
  const ws = new WebSocket(url, key === null ? [] : sessionProtocols(key), { headers });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
  });
  const waiting = new Map<number | null, (result: unknown) => void>();
  const events: WsEvent[] = [];
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as unknown;
    const event = WsEventSchema.safeParse(message);
    if (event.success) return void events.push(event.data);
    const result = WsResultSchema.parse(message);
    waiting.get(result.id)?.(result.id === null ? result : result.result);
    waiting.delete(result.id);
  });
  let nextId = 1;
  return {
    events,
    invoke(name, request = {}) {
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, resolve as (result: unknown) => void);
        ws.send(JSON.stringify({ id, name, request }));
      });
    },
    sendRaw(text) {
      return new Promise((resolve) => {
        waiting.set(null, resolve);
        ws.send(text);
      });
    },
    close: () => ws.close(),
  };
}

/** The socket of the daemon that printed `address` (`http://127.0.0.1:PORT/?key=…`), with the key of that address. */
export function connectToPrinted(address: string | URL): Promise<WsContractClient> {
  const url = new URL(address);
  return connectContract(`ws://${url.host}${WS_PATH}`, url.searchParams.get('key'));
}
