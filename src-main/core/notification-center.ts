import type { Notification, NotificationText } from '../../src-shared/ipc/ipc-contract.js';
import { message, type Message, type MessageKey, type Translate } from '../../src-shared/i18n/message.js';
import type { NotificationKind } from '../../src-shared/model/settings.js';
import type { Clock } from '../common/clock.js';
import { Emitter } from '../common/disposable.js';
import { CoreLanguage } from '../common/i18n.js';
import { formatBytes } from '../../src-shared/model/format.js';
import type { FolderNotify } from '../../src-shared/model/folder-options.js';
import { Throttle } from '../common/throttle.js';
import type { NotificationFeedFile, StoredNotification } from './notification-feed-file.js';
import { NotificationGate } from './notification-gate.js';

export interface NotificationCenterOptions {
  clock: Clock;
  /** whether a kind is switched on in the settings, asked at the moment it would show */
  isEnabled(kind: NotificationKind): boolean;
  /** whether notifications are snoozed now (settings): only problems that need the person show, once each */
  isSnoozed?(): boolean;
  /** the core's language, asked each time a notification is shown or listed (English when absent) */
  translate?: Translate;
  /** the locale a batch's size is written in */
  locale?: () => string;
  /** what lands within this window becomes one notification ("12 files uploaded") */
  mergeMs?: number;
  /** a watched folder's batch: what it uploads within this window (a minute) */
  batchMs?: number;
  /** at most one notification per kind (or per folder's batch) within this window: a storm is one notification */
  spacingMs?: number;
  /** how many notifications the activity feed keeps */
  keep?: number;
  /** where the feed is kept across restarts (the data folder); absent: in memory only */
  file?: NotificationFeedFile;
}

/** What a watched folder can need the person for, said as a notification. */
export const FOLDER_PROBLEMS = ['missing', 'notConnected', 'unreadable'] as const;
export type FolderProblem = (typeof FOLDER_PROBLEMS)[number];

export function isFolderProblem(problem: string): problem is FolderProblem {
  return (FOLDER_PROBLEMS as readonly string[]).includes(problem);
}

/** Where an upload came from, when it was a watched folder's: its "Notify me" decides what is said. */
export interface FromFolder {
  id: number;
  /** the folder's own name ("Camera") */
  name: string;
  notify: FolderNotify;
}

/** A notification as kept: what it says as messages; its title and body are written when it is shown or listed. */
type Stored = StoredNotification;
/** What one file's notification says on its own: when it is alone in its group, it is shown as such. */
type Alone = Pick<Stored, 'text' | 'verbatimBody' | 'link' | 'requestId'>;

/** A file on the service a batch can copy the link of. */
type FileRef = NonNullable<Notification['files']>[number];

/** What one notification says: `verbatimBody` is its body when `text.body` is null (a server's reason, names). */
function said(
  text: NotificationText,
  verbatimBody = '',
  link: string | null = null,
  requestId: string | null = null,
): Alone {
  return { text, verbatimBody, link, requestId };
}

interface Entry {
  name: string;
  file?: FileRef;
  alone: Alone;
  bytes: number;
  quiet: boolean;
}

/** A group of the gate: its kind, and its title when it says several files at once (a whole sentence per count). */
interface Group {
  kind: NotificationKind;
  many(count: number, bytes: number): Message;
}

const many = (key: MessageKey) => (count: number) => message(key, { count });
const GROUPS = {
  uploadsDone: { kind: 'uploadsDone', many: many('core.notifications.uploadedMany') },
  importCompleted: { kind: 'importCompleted', many: many('core.notifications.importCompletedMany') },
  readyToWatch: { kind: 'readyToWatch', many: many('core.notifications.readyToWatchMany') },
  uploadFailed: { kind: 'uploadFailed', many: many('core.notifications.gathered.uploadFailed') },
  leftInPlace: { kind: 'uploadFailed', many: many('core.notifications.gathered.leftInPlace') },
  importFailed: { kind: 'importFailed', many: many('core.notifications.gathered.importFailed') },
  conversionFailed: { kind: 'readyToWatch', many: many('core.notifications.gathered.conversionFailed') },
} as const satisfies Record<string, Group>;
type GroupName = keyof typeof GROUPS;

/** How many names a merged notification's body shows before "and 9 more"; also how many files a batch links. */
const NAMES_SHOWN = 3;

/**
 * What the app tells a person, calmly: what lands within a few seconds of
 * each other is merged into one notification (one "12 files uploaded", not
 * twelve toasts), and a kind says at most one thing a minute, with the count
 * ("23 files could not be uploaded"): a storm is one notification. A watched
 * folder's uploads follow its "Notify me" (every file, a batch per minute,
 * only problems, never). Snoozed, only problems that need the person show,
 * once each. What is not shown still goes to the feed, the Activity panel.
 * Every kind can be switched off.
 *
 * Each notification carries what it says as catalog messages (`text`), and
 * its `title` and `body` written in the core's language at the moment it is
 * shown or listed: a change of language reaches the feed too.
 */
export class NotificationCenter {
  private readonly feed: Stored[] = [];
  private readonly gate: NotificationGate<Entry>;
  /** per gate key: its group (a folder's batch has its own) */
  private readonly groups = new Map<string, Group>();
  /** the problems said once while snoozed; emptied when the snooze ends */
  private readonly saidWhileSnoozed = new Set<string>();
  private nextId = 1;
  private readonly emitter = new Emitter<Notification>();
  private readonly translate: Translate;
  private readonly mergeMs: number;
  /** writes the feed to its file at most once a second */
  private readonly save: Throttle;
  /** a notification was added: shells show it as a toast, unless it is quiet */
  readonly onDidAdd = this.emitter.event;

  constructor(private readonly options: NotificationCenterOptions) {
    this.translate = options.translate ?? new CoreLanguage().translate;
    this.mergeMs = options.mergeMs ?? 5_000;
    // the history of before a restart: newest first, as written
    this.feed.push(...(options.file?.read() ?? []).slice(0, options.keep ?? 200));
    this.nextId = Math.max(0, ...this.feed.map((stored) => stored.id)) + 1;
    this.save = new Throttle(() => options.file?.write(this.feed), 1_000, options.clock);
    this.gate = new NotificationGate({
      clock: options.clock,
      spacingMs: options.spacingMs ?? 60_000,
      out: (key, entries) => this.emitGroup(key, entries),
    });
  }

  /** `from`: the watched folder it came from; uploads added by hand or imported are merged by kind */
  uploaded(
    name: string,
    link: string | null,
    from?: FromFolder & { bytes: number; file: Omit<FileRef, 'name'> | null },
  ): void {
    const alone = said({ title: message('core.notifications.uploaded'), body: null }, name, link);
    if (!from) return this.hold('uploadsDone', name, alone);
    const quiet = from.notify === 'problems' || from.notify === 'never';
    if (from.notify === 'everyFile') return this.add('uploadsDone', alone, { quiet });
    const key = `folder:${from.id}${quiet ? ':quiet' : ''}`;
    const folder = from.name;
    const locale = this.options.locale ?? (() => 'en-US');
    this.groups.set(key, {
      kind: 'uploadsDone',
      many: (count, bytes) =>
        message('core.notifications.gathered.folderBatch', { count, folder, size: formatBytes(bytes, locale()) }),
    });
    this.gate.add(
      key,
      { name, alone, bytes: from.bytes, quiet, ...(from.file ? { file: { ...from.file, name } } : {}) },
      this.options.batchMs ?? 60_000,
    );
  }

  /**
   * `name` changed as the service took it: its final version was uploaded
   * and the copy of the earlier one deleted. Said on its own, not merged,
   * under the "Uploaded" switch.
   */
  replacedStale(name: string, link: string | null): void {
    const title = message('core.notifications.replacedStale', { name });
    this.add('uploadsDone', said({ title, body: message('core.notifications.replacedStaleBody') }, name, link));
  }

  /** "Delete after upload" had no Trash for `name` (`why`): it stays where it is. Under the "Upload failed" switch. */
  leftInPlace(name: string, why: Message): void {
    const title = message('core.notifications.leftInPlace', { name });
    this.hold('leftInPlace', name, said({ title, body: why }));
  }

  importCompleted(name: string, link: string | null): void {
    const text = { title: message('core.notifications.importCompleted'), body: null };
    this.hold('importCompleted', name, said(text, name, link));
  }

  /** A followed video finished converting; `watchUrl` is its watch page, opened on click. */
  readyToWatch(name: string, watchUrl: string | null): void {
    const text = {
      title: message('core.notifications.readyToWatch', { name }),
      body: message('core.notifications.readyToWatchBody'),
    };
    this.hold('readyToWatch', name, said(text, '', watchUrl));
  }

  /** `text`: the reason as a catalog message, when it is the app's own sentence */
  conversionFailed(name: string, reason: string, text?: Message): void {
    const title = message('core.notifications.conversionFailed', { name });
    this.hold('conversionFailed', name, said({ title, body: text ?? null }, reason));
  }

  /**
   * `text`: the reason as a catalog message, when it is the app's own sentence;
   * `from`: the watched folder it came from, whose "never" keeps it to the Activity panel
   */
  uploadFailed(name: string, reason: string, requestId: string | null, text?: Message, from?: FromFolder): void {
    const title = message('core.notifications.uploadFailed', { name });
    const alone = said({ title, body: text ?? null }, reason, null, requestId);
    this.hold('uploadFailed', name, alone, from?.notify === 'never');
  }

  /** `reason` null: the service said nothing, and the notification says only that the import failed */
  importFailed(name: string, reason: string | null): void {
    const title = message('core.notifications.importFailed', { name });
    const body = reason === null ? message('core.notifications.importFailedReason') : null;
    this.hold('importFailed', name, said({ title, body }, reason ?? ''));
  }

  /** Needs the person: shown while snoozed too, once per account. */
  accountProblem(account: string, reason: string, requestId: string | null): void {
    const text = { title: message('core.notifications.accountProblem', { account }), body: null };
    this.add('accountProblem', said(text, reason, null, requestId), { urgent: `account:${account}` });
  }

  /** Media Sync's own disk is full (`dataDir`: its data folder): said once each time it fills up, snoozed or not. */
  dataDiskFull(dataDir: string): void {
    const text = {
      title: message('core.notifications.dataDiskFull'),
      body: message('core.notifications.dataDiskFullBody', { path: dataDir }),
    };
    this.add('dataDiskFull', said(text), { urgent: 'dataDiskFull' });
  }

  /**
   * Watched folder `id` (named `name`) needs the person: it is gone, its
   * drive is not connected, or it cannot be read. Said when it starts, once
   * while snoozed too.
   */
  folderProblem(id: number, name: string, problem: FolderProblem): void {
    const text = {
      title: message(`core.notifications.folder.${problem}`, { name }),
      body: message(`folders.problem.${problem}Detail`),
    };
    this.add('folderProblem', said(text), { urgent: `folder:${id}:${problem}` });
  }

  /** The feed, newest first, in the core's language of now. */
  list(): Notification[] {
    return this.feed.map((stored) => this.written(stored));
  }

  clear(): void {
    this.feed.length = 0;
    this.options.file?.write(this.feed);
  }

  /** Shows what is waiting to be merged now (quit). */
  flush(): void {
    this.gate.flush();
    this.save.flush();
  }

  dispose(): void {
    this.gate.dispose();
    this.save.dispose();
    this.emitter.dispose();
  }

  /** Holds `alone`, about the file `fileName`, in its group, merged with what comes within 5 s. */
  private hold(name: GroupName, fileName: string, alone: Alone, quiet = false): void {
    const key = quiet ? `${name}:quiet` : name;
    this.groups.set(key, GROUPS[name]);
    this.gate.add(key, { name: fileName, alone, bytes: 0, quiet }, this.mergeMs);
  }

  private emitGroup(key: string, entries: Entry[]): void {
    const group = this.groups.get(key)!;
    const quiet = entries.every((entry) => entry.quiet);
    if (entries.length === 1) return this.add(group.kind, entries[0]!.alone, { quiet });
    const names = entries.map((entry) => entry.name);
    const shown = names.slice(0, NAMES_SHOWN).join(', ');
    const more = names.length - NAMES_SHOWN;
    const bytes = entries.reduce((sum, entry) => sum + entry.bytes, 0);
    // "a.mp4, b.mp4, c.mp4 and 9 more"; up to three names are just the names, in any language
    const body = more > 0 ? message('core.notifications.namesAndMore', { names: shown, count: more }) : null;
    const files = entries.flatMap((entry) => entry.file ?? []).slice(0, NAMES_SHOWN);
    const text = { title: group.many(names.length, bytes), body };
    this.add(group.kind, said(text, shown), { quiet, files });
  }

  /**
   * Adds a notification to the feed and tells the shells. Snoozed, it is
   * quiet (the Activity panel only) unless it is `urgent`: a problem that
   * needs the person, said once (per its key) while the snooze lasts.
   */
  private add(
    kind: NotificationKind,
    alone: Alone,
    { quiet = false, urgent, files }: { quiet?: boolean; urgent?: string; files?: FileRef[] } = {},
  ) {
    if (!this.options.isEnabled(kind)) return;
    if (this.options.isSnoozed?.()) {
      if (urgent === undefined || this.saidWhileSnoozed.has(urgent)) quiet = true;
      else this.saidWhileSnoozed.add(urgent);
    } else this.saidWhileSnoozed.clear();
    const stored: Stored = {
      id: this.nextId++,
      kind,
      ...alone,
      at: this.options.clock.wall(),
      ...(quiet ? { quiet } : {}),
      ...(files && files.length > 0 ? { files } : {}),
    };
    this.feed.unshift(stored);
    this.feed.length = Math.min(this.feed.length, this.options.keep ?? 200);
    if (this.options.file) this.save.schedule();
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
