import type { RateLimitView } from '../../src-shared/ipc/ipc-contract.js';
import type { AppBridge } from '../bridge/app-bridge.js';
import { Store } from './store.js';

/** A rate-limit view and when it arrived (`Date.now()`), so its gate counts down locally. */
export interface RateLimitEntry {
  view: RateLimitView;
  receivedAt: number;
}

/** Milliseconds until the account's gate reopens, counted from when the core said so. */
export function gateLeftMs(entry: RateLimitEntry | undefined, now: number): number {
  if (!entry) return 0;
  return Math.max(0, entry.view.gateOpensInMs - (now - entry.receivedAt));
}

/**
 * When the account's gate reopens (epoch ms), 0 while it is open: what a
 * queue row needs of its account's budget, as a number, so that the row
 * renders again when the gate closes or opens, not at each request's new
 * `remaining` (an event per request: hundreds a second with many small files).
 */
export function gateOpensAt(entry: RateLimitEntry | undefined): number {
  return entry && entry.view.gateOpensInMs > 0 ? entry.receivedAt + entry.view.gateOpensInMs : 0;
}

/** Every account's request budget, by account id: read at start, then kept from `app:rateLimitChanged`. */
export class RateLimitsStore extends Store<ReadonlyMap<string, RateLimitEntry>> {
  constructor(private readonly bridge: AppBridge) {
    super(new Map());
    this.register(
      bridge.on('app:rateLimitChanged', (view) => this.set(new Map(this.get()).set(view.accountId, entry(view)))),
    );
  }

  load(): void {
    this.bridge.invoke('app:rateLimits', {}).then(
      (views) => this.set(new Map(views.map((view) => [view.accountId, entry(view)]))),
      // the indicator says "no limit known" meanwhile; the next event or reconnection brings them
      () => undefined,
    );
  }
}

function entry(view: RateLimitView): RateLimitEntry {
  return { view, receivedAt: Date.now() };
}
