import type { AccountView } from '../../src-shared/ipc/ipc-contract.js';

/** An account as the contract describes it, for answers to `account:list`. */
export const ACCOUNT: AccountView = {
  id: 'acc-1',
  baseUrl: 'http://127.0.0.1:9/api/v1',
  username: 'demo',
  plan: 'free',
  blocked: null,
  tokenStorage: 'a file only your user can read',
};

/** A scripted socket: records what the page sends, and lets the test answer or drop it. */
export class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: Array<{ id: number; name: string; request: unknown }> = [];
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.onclose?.({} as CloseEvent);
  }
  open() {
    this.readyState = 1;
    this.onopen?.({} as Event);
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) } as MessageEvent);
  }
}
