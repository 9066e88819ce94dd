import { describe, expect, it } from 'vitest';
import { ContractError, contractClient, type ContractTransport } from '../../../src-shared/ipc/contract-client.js';
import type { IpcEventName, IpcResult } from '../../../src-shared/ipc/ipc-contract.js';

/** A transport that answers from a script and lets the test fire events. */
function scripted(answer: (name: string, request: unknown) => IpcResult<unknown>) {
  const listeners = new Set<(name: IpcEventName, payload: unknown) => void>();
  const sent: Array<{ name: string; request: unknown }> = [];
  const transport: ContractTransport = {
    send: async (name, request) => {
      sent.push({ name, request });
      return answer(name, request);
    },
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const fire = (name: IpcEventName, payload: unknown) => {
    for (const listener of listeners) listener(name, payload);
  };
  return { transport, sent, fire };
}

describe('contractClient', () => {
  it('sends the command with its request and resolves with the value', async () => {
    const { transport, sent } = scripted(() => ({ ok: true, value: { removed: 3 } }));
    const client = contractClient(transport);
    await expect(client.invoke('uploads:clearFinished', {})).resolves.toEqual({ removed: 3 });
    expect(sent).toEqual([{ name: 'uploads:clearFinished', request: {} }]);
  });

  it("rejects with the core's error: code, message, request id, catalog text and reasons per field kept", async () => {
    const error = {
      code: 'NOT_FOUND',
      message: 'There is no upload #4.',
      requestId: 'r-1',
      fields: { 'urls.0': ['Not a video.'] },
      text: { key: 'core.errors.noUpload' as const, values: { id: 4 } },
    };
    const { transport } = scripted(() => ({ ok: false, error }));
    const failure = await contractClient(transport)
      .invoke('uploads:cancel', { id: 4 })
      .catch((problem: unknown) => problem);
    expect(failure).toBeInstanceOf(ContractError);
    expect((failure as ContractError).toIpcError()).toEqual(error);
  });

  it("keeps the service's reasons per field, for a client to name the refused links", async () => {
    const error = {
      code: 'VALIDATION_ERROR',
      message: 'The given data was invalid.',
      requestId: 'r-2',
      fields: { 'urls.1': ['The target address is not allowed.'] },
    };
    const { transport } = scripted(() => ({ ok: false, error }));
    const failure = (await contractClient(transport)
      .invoke('imports:create', { accountId: 'a', body: { urls: ['https://a.example/1', 'http://10.0.0.1/2'] } })
      .catch((problem: unknown) => problem)) as ContractError;
    expect(failure.fields).toEqual(error.fields);
    expect(failure.toIpcError()).toEqual(error);
  });

  it('hands a listener only the events of its name, until it unsubscribes', () => {
    const { transport, fire } = scripted(() => ({ ok: true, value: null }));
    const client = contractClient(transport);
    const heard: unknown[] = [];
    const stop = client.on('notifications:added', (payload) => heard.push(payload));
    fire('uploads:statusChanged', { paused: true });
    fire('notifications:added', { id: 1 });
    stop();
    fire('notifications:added', { id: 2 });
    expect(heard).toEqual([{ id: 1 }]);
  });
});
