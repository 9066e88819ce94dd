import type { Notification } from '../../src-shared/ipc/ipc-contract.js';
import type { NotificationKind } from '../../src-shared/model/settings.js';
import type { Clock } from '../common/clock.js';
import { Emitter } from '../common/disposable.js';

export interface NotificationCenterOptions {
  clock: Clock;
  /** whether a kind is switched on in the settings, asked at the moment it would show */
  isEnabled(kind: NotificationKind): boolean;
  /** successes within this window become one notification ("12 files uploaded") */
  mergeMs?: number;
  /** how many notifications the activity feed keeps */
  keep?: number;
}

interface Pending {
  names: string[];
  links: string[];
  timer: AbortController;
}

type MergedKind = 'uploadsDone' | 'importCompleted' | 'readyToWatch';

/** Each a whole sentence per count: titles are never put together from pieces. */
const MERGED_TEXT: Record<MergedKind, { one: (name: string) => [string, string]; many: (n: number) => string }> = {
  uploadsDone: { one: (name) => ['Uploaded', name], many: (n) => `${n} files uploaded` },
  importCompleted: { one: (name) => ['Import completed', name], many: (n) => `${n} imports completed` },
  readyToWatch: {
    one: (name) => [`Ready to watch: ${name}`, 'The video finished converting. Open it to watch it.'],
    many: (n) => `${n} videos are ready to watch`,
  },
};

/**
 * What the app tells a person, calmly: successes that land within a few
 * seconds of each other are merged into one notification (one "12 files
 * uploaded", not twelve toasts); each failure is its own, with the reason and
 * request id. Every kind can be switched off. Keeps a feed for the activity panel.
 */
export class NotificationCenter {
  private readonly feed: Notification[] = [];
  private readonly pending = new Map<MergedKind, Pending>();
  private nextId = 1;
  private readonly emitter = new Emitter<Notification>();
  /** a notification was added: shells show it as a toast */
  readonly onDidAdd = this.emitter.event;

  constructor(private readonly options: NotificationCenterOptions) {}

  uploaded(name: string, link: string | null): void {
    this.merge('uploadsDone', name, link);
  }

  importCompleted(name: string, link: string | null): void {
    this.merge('importCompleted', name, link);
  }

  /** A followed video finished converting; `watchUrl` is its watch page, opened on click. */
  readyToWatch(name: string, watchUrl: string | null): void {
    this.merge('readyToWatch', name, watchUrl);
  }

  conversionFailed(name: string, reason: string): void {
    this.add('readyToWatch', `Conversion failed: ${name}`, reason, null, null);
  }

  uploadFailed(name: string, reason: string, requestId: string | null): void {
    this.add('uploadFailed', `Upload failed: ${name}`, reason, null, requestId);
  }

  importFailed(name: string, reason: string): void {
    this.add('importFailed', `Import failed: ${name}`, reason, null, null);
  }

  accountProblem(account: string, reason: string, requestId: string | null): void {
    this.add('accountProblem', `Uploads to ${account} are paused`, reason, null, requestId);
  }

  list(): Notification[] {
    return [...this.feed];
  }

  clear(): void {
    this.feed.length = 0;
  }

  /** Shows what is waiting to be merged now (quit). */
  flush(): void {
    for (const kind of [...this.pending.keys()]) this.emitMerged(kind);
  }

  dispose(): void {
    for (const pending of this.pending.values()) pending.timer.abort();
    this.pending.clear();
    this.emitter.dispose();
  }

  private merge(kind: MergedKind, name: string, link: string | null): void {
    let pending = this.pending.get(kind);
    if (!pending) {
      pending = { names: [], links: [], timer: new AbortController() };
      this.pending.set(kind, pending);
      this.options.clock.sleep(this.options.mergeMs ?? 5_000, pending.timer.signal).then(
        () => this.emitMerged(kind),
        () => undefined,
      );
    }
    pending.names.push(name);
    if (link) pending.links.push(link);
  }

  private emitMerged(kind: MergedKind): void {
    const pending = this.pending.get(kind);
    if (!pending) return;
    this.pending.delete(kind);
    pending.timer.abort();
    const count = pending.names.length;
    const text = MERGED_TEXT[kind];
    const [title, body] = count === 1 ? text.one(pending.names[0]!) : [text.many(count), summarise(pending.names)];
    this.add(kind, title, body, count === 1 ? (pending.links[0] ?? null) : null, null);
  }

  private add(kind: NotificationKind, title: string, body: string, link: string | null, requestId: string | null) {
    if (!this.options.isEnabled(kind)) return;
    const notification: Notification = {
      id: this.nextId++,
      kind,
      title,
      body,
      at: this.options.clock.wall(),
      link,
      requestId,
    };
    this.feed.unshift(notification);
    this.feed.length = Math.min(this.feed.length, this.options.keep ?? 200);
    this.emitter.fire(notification);
  }
}

/** "a.mp4, b.mp4, c.mp4 and 9 more" */
function summarise(names: string[]): string {
  const shown = names.slice(0, 3).join(', ');
  return names.length > 3 ? `${shown} and ${names.length - 3} more` : shown;
}
