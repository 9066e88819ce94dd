import type { Notification, NotificationText } from '../../src-shared/ipc/ipc-contract.js';
import { message, type Message, type Translate } from '../../src-shared/i18n/message.js';
import type { NotificationKind } from '../../src-shared/model/settings.js';
import type { Clock } from '../common/clock.js';
import { Emitter } from '../common/disposable.js';
import { CoreLanguage } from '../common/i18n.js';
import { Throttle } from '../common/throttle.js';

export interface NotificationCenterOptions {
  clock: Clock;
  /** whether a kind is switched on in the settings, asked at the moment it would show */
  isEnabled(kind: NotificationKind): boolean;
  /** the core's language, asked each time a notification is shown or listed (English when absent) */
  translate?: Translate;
  /** successes within this window become one notification ("12 files uploaded") */
  mergeMs?: number;
  /** how many notifications the activity feed keeps */
  keep?: number;
}

interface Pending {
  names: string[];
  links: string[];
}

/** A notification as kept: what it says as messages; its title and body are written when it is shown or listed. */
type Stored = Omit<Notification, 'title' | 'body'> & { verbatimBody: string };

const MERGED_KINDS = ['uploadsDone', 'importCompleted', 'readyToWatch'] as const;
type MergedKind = (typeof MERGED_KINDS)[number];

/** How many names a merged notification's body shows before "and 9 more". */
const NAMES_SHOWN = 3;

/** Each a whole sentence per count: titles are never put together from pieces. */
const MERGED_TEXT: Record<
  MergedKind,
  { one: (name: string) => [Message, Message | null]; many: (count: number) => Message }
> = {
  uploadsDone: {
    one: () => [message('core.notifications.uploaded'), null],
    many: (count) => message('core.notifications.uploadedMany', { count }),
  },
  importCompleted: {
    one: () => [message('core.notifications.importCompleted'), null],
    many: (count) => message('core.notifications.importCompletedMany', { count }),
  },
  readyToWatch: {
    one: (name) => [
      message('core.notifications.readyToWatch', { name }),
      message('core.notifications.readyToWatchBody'),
    ],
    many: (count) => message('core.notifications.readyToWatchMany', { count }),
  },
};

/**
 * What the app tells a person, calmly: successes that land within a few
 * seconds of each other are merged into one notification (one "12 files
 * uploaded", not twelve toasts); each failure is its own, with the reason and
 * request id. Every kind can be switched off. Keeps a feed for the activity panel.
 *
 * Each notification carries what it says as catalog messages (`text`), and
 * its `title` and `body` written in the core's language at the moment it is
 * shown or listed: a change of language reaches the feed too.
 */
export class NotificationCenter {
  private readonly feed: Stored[] = [];
  private readonly pending = new Map<MergedKind, Pending>();
  /** per kind: the first success opens the window, the ones within it are merged into its notification */
  private readonly windows: Map<MergedKind, Throttle>;
  private nextId = 1;
  private readonly emitter = new Emitter<Notification>();
  private readonly translate: Translate;
  /** a notification was added: shells show it as a toast */
  readonly onDidAdd = this.emitter.event;

  constructor(private readonly options: NotificationCenterOptions) {
    this.translate = options.translate ?? new CoreLanguage().translate;
    const mergeMs = options.mergeMs ?? 5_000;
    this.windows = new Map(
      MERGED_KINDS.map((kind) => [kind, new Throttle(() => this.emitMerged(kind), mergeMs, options.clock)]),
    );
  }

  uploaded(name: string, link: string | null): void {
    this.merge('uploadsDone', name, link);
  }

  /**
   * `name` changed as the service took it: its final version was uploaded
   * and the copy of the earlier one deleted. Said on its own, not merged,
   * under the "Uploaded" switch.
   */
  replacedStale(name: string, link: string | null): void {
    const title = message('core.notifications.replacedStale', { name });
    this.add('uploadsDone', { title, body: message('core.notifications.replacedStaleBody') }, name, link);
  }

  /** "Delete after upload" had no Trash for `name` (`why`): it stays where it is. Under the "Upload failed" switch. */
  leftInPlace(name: string, why: Message): void {
    this.add('uploadFailed', { title: message('core.notifications.leftInPlace', { name }), body: why });
  }

  importCompleted(name: string, link: string | null): void {
    this.merge('importCompleted', name, link);
  }

  /** A followed video finished converting; `watchUrl` is its watch page, opened on click. */
  readyToWatch(name: string, watchUrl: string | null): void {
    this.merge('readyToWatch', name, watchUrl);
  }

  /** `text`: the reason as a catalog message, when it is the app's own sentence */
  conversionFailed(name: string, reason: string, text?: Message): void {
    const title = message('core.notifications.conversionFailed', { name });
    this.add('readyToWatch', { title, body: text ?? null }, reason);
  }

  /** `text`: the reason as a catalog message, when it is the app's own sentence */
  uploadFailed(name: string, reason: string, requestId: string | null, text?: Message): void {
    const title = message('core.notifications.uploadFailed', { name });
    this.add('uploadFailed', { title, body: text ?? null }, reason, null, requestId);
  }

  /** `reason` null: the service said nothing, and the notification says only that the import failed */
  importFailed(name: string, reason: string | null): void {
    const title = message('core.notifications.importFailed', { name });
    if (reason === null) this.add('importFailed', { title, body: message('core.notifications.importFailedReason') });
    else this.add('importFailed', { title, body: null }, reason);
  }

  accountProblem(account: string, reason: string, requestId: string | null): void {
    const text = { title: message('core.notifications.accountProblem', { account }), body: null };
    this.add('accountProblem', text, reason, null, requestId);
  }

  /** Media Sync's own disk is full (`dataDir`: its data folder): said once each time it fills up. */
  dataDiskFull(dataDir: string): void {
    const text = {
      title: message('core.notifications.dataDiskFull'),
      body: message('core.notifications.dataDiskFullBody', { path: dataDir }),
    };
    this.add('dataDiskFull', text);
  }

  /** The feed, newest first, in the core's language of now. */
  list(): Notification[] {
    return this.feed.map((stored) => this.written(stored));
  }

  clear(): void {
    this.feed.length = 0;
  }

  /** Shows what is waiting to be merged now (quit). */
  flush(): void {
    for (const kind of [...this.pending.keys()]) this.windows.get(kind)!.flush();
  }

  dispose(): void {
    for (const throttle of this.windows.values()) throttle.dispose();
    this.pending.clear();
    this.emitter.dispose();
  }

  private merge(kind: MergedKind, name: string, link: string | null): void {
    let pending = this.pending.get(kind);
    if (!pending) this.pending.set(kind, (pending = { names: [], links: [] }));
    pending.names.push(name);
    if (link) pending.links.push(link);
    this.windows.get(kind)!.schedule();
  }

  private emitMerged(kind: MergedKind): void {
    const pending = this.pending.get(kind);
    if (!pending) return;
    this.pending.delete(kind);
    const { names } = pending;
    const mergedText = MERGED_TEXT[kind];
    if (names.length === 1) {
      const [title, body] = mergedText.one(names[0]!);
      this.add(kind, { title, body }, names[0]!, pending.links[0] ?? null);
      return;
    }
    const shown = names.slice(0, NAMES_SHOWN).join(', ');
    const more = names.length - NAMES_SHOWN;
    // "a.mp4, b.mp4, c.mp4 and 9 more"; up to three names are just the names, in any language
    const body = more > 0 ? message('core.notifications.namesAndMore', { names: shown, count: more }) : null;
    this.add(kind, { title: mergedText.many(names.length), body }, shown);
  }

  private add(
    kind: NotificationKind,
    text: NotificationText,
    verbatimBody = '',
    link: string | null = null,
    requestId: string | null = null,
  ) {
    if (!this.options.isEnabled(kind)) return;
    const stored: Stored = {
      id: this.nextId++,
      kind,
      text,
      verbatimBody,
      at: this.options.clock.wall(),
      link,
      requestId,
    };
    this.feed.unshift(stored);
    this.feed.length = Math.min(this.feed.length, this.options.keep ?? 200);
    this.emitter.fire(this.written(stored));
  }

  private written({ verbatimBody, ...stored }: Stored): Notification {
    const { title, body } = stored.text;
    return {
      ...stored,
      title: this.translate(title),
      body: body ? this.translate(body) : verbatimBody,
    };
  }
}
