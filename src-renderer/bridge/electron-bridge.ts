import {
  IPC_COMMANDS,
  IPC_EVENTS,
  IpcErrorSchema,
  type IpcCommandName,
  type IpcEventName,
  type IpcEventPayload,
  type IpcRequest,
  type IpcResponse,
} from '../../src-shared/ipc/ipc-contract.js';
import { z } from 'zod';
import type { AppBridge, ConnectionState } from './app-bridge.js';
import { BridgeError } from './bridge-error.js';

/** What Electron's preload puts on `window.mediaSync` (src-main/electron/preload-bridge.ts). */
export interface PreloadApi {
  commands: Record<string, (request: unknown) => Promise<unknown>>;
  onEvent(listener: (event: unknown) => void): () => void;
  pathForFile?(file: File): string;
}

const ResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: IpcErrorSchema }),
]);
const EventSchema = z.object({ name: z.string(), payload: z.unknown() });

/** The contract through Electron's preload: parsed on this side too, as over the socket. */
export class ElectronBridge implements AppBridge {
  readonly shell = 'electron';

  constructor(private readonly api: PreloadApi) {}

  connection(): ConnectionState {
    return 'open';
  }

  onConnectionChange(): () => void {
    return () => undefined;
  }

  pathForFile(file: File): string | null {
    return this.api.pathForFile?.(file) || null;
  }

  async invoke<N extends IpcCommandName>(name: N, request: IpcRequest<N>): Promise<IpcResponse<N>> {
    const result = ResultSchema.parse(await this.api.commands[name]!(request));
    if (!result.ok) throw new BridgeError(result.error);
    const value = IPC_COMMANDS[name].response.safeParse(result.value);
    if (!value.success) {
      throw new BridgeError({
        code: 'BAD_RESPONSE',
        message: 'Media Sync sent an unexpected answer.',
        requestId: null,
      });
    }
    return value.data as IpcResponse<N>;
  }

  on<N extends IpcEventName>(name: N, listener: (payload: IpcEventPayload<N>) => void): () => void {
    return this.api.onEvent((raw) => {
      const event = EventSchema.safeParse(raw);
      if (!event.success || event.data.name !== name) return;
      const payload = IPC_EVENTS[name].safeParse(event.data.payload);
      if (payload.success) listener(payload.data as IpcEventPayload<N>);
    });
  }
}
