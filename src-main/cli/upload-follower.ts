import type { AccountView, IpcError, QueueStatus, UploadItemView } from '../../src-shared/ipc/ipc-contract.js';
import type { QueueHold } from '../../src-shared/model/queue-hold.js';
import { DisposableStore } from '../common/disposable.js';
import { fileLink } from './command-context.js';
import type { CliContract } from './open-contract.js';

/** Why following stopped: each item settled, or the queue waits for a person, or a signal came. */
export type FollowEnd =
  | { kind: 'settled' }
  | { kind: 'paused' }
  | { kind: 'held'; hold: QueueHold }
  | { kind: 'blocked'; reason: IpcError }
  | { kind: 'signedOut' }
  | { kind: 'stopped'; signal: NodeJS.Signals };

export interface FollowHooks {
  /** an item was added or changed state */
  onItem?(item: UploadItemView): void;
  /** bytes moved */
  onProgress?(item: UploadItemView): void;
  /** an upload ended and the service gave its file's link (null: it gave none) */
  onUploaded?(item: UploadItemView, link: string | null): void;
}

/** Kinds an item stays in until a person acts: the command stops waiting for it. */
const SETTLED_KINDS = new Set(['done', 'failed', 'cancelled', 'paused']);

/**
 * Queue items as the core's events tell them, for `upload` and `watch`: the
 * same events whether the core runs in this process or in the app. Subscribed
 * when made, before the command adds anything: a small file can be done
 * before the answer that added it comes.
 */
export class UploadFollower {
  /** the latest of every item an event or an answer told of */
  readonly items = new Map<number, UploadItemView>();
  /** the link of each item the service answered for (uploads:uploaded) */
  readonly links = new Map<number, string | null>();
  private status: QueueStatus | null = null;
  private blocked: IpcError | null;
  /** the account was signed out (in the app, or by `logout`) while its uploads were followed */
  private signedOut = false;
  private readonly subscriptions = new DisposableStore();
  private wake: () => void = () => undefined;

  constructor(
    private readonly contract: CliContract,
    account: AccountView,
    hooks: FollowHooks = {},
  ) {
    this.blocked = account.blocked;
    const on = this.subscriptions.add.bind(this.subscriptions);
    on(
      contract.on('uploads:itemChanged', (item) => {
        this.items.set(item.id, item);
        hooks.onItem?.(item);
        this.wake();
      }),
    );
    on(
      contract.on('uploads:progress', (batch) => {
        for (const { id, state } of batch) {
          const item = this.items.get(id);
          if (!item) continue;
          const moved = { ...item, state };
          this.items.set(id, moved);
          hooks.onProgress?.(moved);
        }
      }),
    );
    on(
      contract.on('uploads:uploaded', ({ id, file }) => {
        const link = fileLink(file);
        this.links.set(id, link);
        const item = this.items.get(id);
        if (item) hooks.onUploaded?.(item, link);
        this.wake();
      }),
    );
    on(
      contract.on('uploads:statusChanged', (status) => {
        this.status = status;
        this.wake();
      }),
    );
    on(
      contract.on('account:changed', (accounts) => {
        const now = accounts.find((view) => view.id === account.id);
        this.blocked = now?.blocked ?? null;
        this.signedOut = now === undefined;
        this.wake();
      }),
    );
  }

  /** Items a command was answered with: kept unless an event told of them first (an event is the later word). */
  know(items: UploadItemView[]): void {
    for (const item of items) if (!this.items.has(item.id)) this.items.set(item.id, item);
  }

  /**
   * Waits until each of `ids` is done, failed, cancelled or paused, or the
   * queue waits for a person (paused, held by the schedule or the battery, a
   * refused token), or `stop` is aborted. Rejects if the owner this command
   * goes through stops meanwhile.
   */
  async settle(ids: ReadonlySet<number>, stop: AbortSignal): Promise<FollowEnd> {
    this.status = await this.contract.invoke('uploads:status', {});
    let lost = false;
    void this.contract.gone.then(() => {
      lost = true;
      this.wake();
    });
    const onStop = () => this.wake();
    stop.addEventListener('abort', onStop);
    try {
      for (;;) {
        if (stop.aborted) return { kind: 'stopped', signal: stop.reason as NodeJS.Signals };
        if (lost) throw new Error(OWNER_STOPPED);
        if ([...ids].every((id) => SETTLED_KINDS.has(this.items.get(id)?.state.kind ?? ''))) break;
        if (this.blocked) return { kind: 'blocked', reason: this.blocked };
        if (this.signedOut) return { kind: 'signedOut' };
        if (this.status.pause) return { kind: 'paused' };
        if (this.status.hold) return { kind: 'held', hold: this.status.hold };
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
      // one more answer: the events sent before it (the last links) have all come by then
      this.status = await this.contract.invoke('uploads:status', {});
      return { kind: 'settled' };
    } finally {
      stop.removeEventListener('abort', onStop);
      this.wake = () => undefined;
    }
  }

  dispose(): void {
    this.subscriptions.dispose();
  }
}

export const OWNER_STOPPED =
  'The Media Sync that owns the data folder stopped while this command followed its uploads; they wait in its queue. Run the same command again to go on.';

/** What a command says when the account was signed out while it followed its uploads. */
export function accountSignedOut(account: Pick<AccountView, 'baseUrl'>): Error {
  return new Error(
    `The account was signed out while its files uploaded; they wait in its queue, with what they sent. Sign in to it again to go on (media-sync login --base-url ${account.baseUrl}).`,
  );
}

/** What a command says when the service refused the account's token while it followed uploads. */
export function tokenRefused(reason: IpcError): Error {
  const requestId = reason.requestId ? ` (request id ${reason.requestId})` : '';
  return new Error(
    `The server refused the token: ${reason.message}${requestId}. Uploads are kept; sign in again with a working token to go on.`,
  );
}
