import type { MenuItemConstructorOptions } from 'electron';
import { basename, join } from 'node:path';
import type { QueueOverview as CoreQueueOverview, QueueStatus } from '../../src-shared/ipc/ipc-contract.js';
import type { FolderStatus } from '../../src-shared/model/folder-status.js';
import { formatBytes, formatDuration } from '../../src-shared/model/format.js';
import { PAUSE_HOURS, type PauseHours } from '../../src-shared/model/queue-pause.js';
import type { WhenDoneAction } from '../../src-shared/model/when-done.js';
import {
  isSnoozed,
  snoozeEndTime,
  SNOOZE_CHOICES,
  type NotificationSnooze,
  type SnoozeChoice,
} from '../../src-shared/model/notification-snooze.js';
import { CoreLanguage } from '../common/i18n.js';
import { remainingOf, type QueueProgress } from './queue-progress.js';

/** The app's name, the same in every language. */
const APP_NAME = 'Media Sync';

/** The four faces of the tray icon; assets/tray has a PNG (1x and @2x) for each. */
export const TRAY_KINDS = ['idle', 'uploading', 'paused', 'error'] as const;
export type TrayKind = (typeof TRAY_KINDS)[number];

export interface TrayState {
  kind: TrayKind;
  /** the icon's tooltip: the app's name and the status */
  tooltip: string;
  /** the status alone, the menu's first line */
  status: string;
  /** held by the schedule, the battery or a metered connection, not by the person: Resume would not lift it, so the menu offers Pause */
  held?: true;
}

/** The queue as the tray sums it up: the running items with their bytes, and how many wait or failed. */
export type QueueOverview = Pick<CoreQueueOverview, 'running' | 'waiting' | 'failed'>;

/** The core's language: `t` for the tray's sentences, `locale` for its sizes and times. */
export type TrayLanguage = Pick<CoreLanguage, 't' | 'locale'>;

const ENGLISH = new CoreLanguage();

/**
 * What the tray icon shows: an error wins, then paused (by the person, then
 * by the battery, a metered connection or the schedule), then uploading
 * ("3 files left · 2.1 GB · about 12 min" from `left`, the time once it is
 * known), else idle.
 */
export function trayState(
  status: QueueStatus,
  queue: QueueOverview,
  blockedReason: string | null,
  language: TrayLanguage = ENGLISH,
  left?: Pick<QueueProgress, 'filesLeft' | 'bytesLeft' | 'etaSeconds'>,
): TrayState {
  const { t, locale } = language;
  const state = (kind: TrayKind, text: string, held?: true): TrayState => ({
    kind,
    tooltip: t('core.tray.tooltip', { app: APP_NAME, status: text }),
    status: text,
    ...(held ? { held } : {}),
  });
  const time = (at: number) => new Date(at).toLocaleTimeString(locale, { hour: 'numeric', minute: '2-digit' });
  if (blockedReason) return state('error', t('core.tray.blocked', { reason: blockedReason }));
  // nothing can be saved: more pressing than any pause, and no Resume lifts it
  if (status.hold?.reason === 'dataDiskFull') {
    return state('error', t('core.tray.dataDiskFull', { count: status.hold.waiting }), true);
  }
  if (status.pause) {
    const until = status.pause.until;
    return state('paused', until === null ? t('core.tray.paused') : t('core.tray.pausedUntil', { time: time(until) }));
  }
  if (status.hold?.reason === 'battery') return state('paused', t('core.tray.battery'), true);
  if (status.hold?.reason === 'metered') return state('paused', t('core.tray.metered'), true);
  if (status.hold?.reason === 'schedule') {
    const until = status.hold.until;
    const text = until === null ? t('core.tray.schedule') : t('core.tray.scheduleUntil', { time: time(until) });
    return state('paused', text, true);
  }
  if (queue.running.some((item) => item.state.kind === 'uploading')) {
    // without the desktop's measure (a first look, the tests): the running files' bytes, and the files waiting
    const { filesLeft, bytesLeft, etaSeconds } = left ?? {
      filesLeft: queue.running.length + queue.waiting,
      bytesLeft: remainingOf(queue.running).bytesLeft,
      etaSeconds: null,
    };
    const size = formatBytes(bytesLeft, locale);
    return state(
      'uploading',
      etaSeconds === null
        ? t('core.tray.left', { count: filesLeft, size })
        : t('core.tray.leftTime', { count: filesLeft, size, time: formatDuration(etaSeconds, locale) }),
    );
  }
  const failed = queue.failed;
  if (failed > 0) return state('error', t('core.tray.failed', { count: failed }));
  return state('idle', t('core.tray.upToDate'));
}

/**
 * The tray image of a state. Electron's nativeImage cannot read SVG, so these
 * are PNGs (from assets/tray/*.svg, `npm run make-icons`); nativeImage picks
 * the `@2x` file beside it by itself on high-DPI screens.
 */
export function trayIconPath(kind: TrayKind, assetsDir: string): string {
  return join(assetsDir, 'tray', `tray-${kind}.png`);
}

export interface TrayActions {
  open(): void;
  pause(hours: PauseHours | null): void;
  resume(): void;
  openLink(url: string): void;
  quit(): void;
  /** "When done": the action chosen (null: nothing), when its countdown ends (null: not counting), and the choice */
  whenDone?: {
    action: WhenDoneAction | null;
    countdownEndsAt: number | null;
    choose(action: WhenDoneAction | null): void;
  };
  /** "Restart to update", when an update is downloaded */
  update?: { label: string; enabled: boolean; click(): void };
  /** "Snooze notifications": the snooze now (null: none), a choice, and turning them on again */
  notifications?: { snooze: NotificationSnooze; choose(choice: SnoozeChoice): void; turnOn(): void };
  /** the watched folders, one line each with their own Pause/Resume */
  folders?: { statuses: readonly FolderStatus[]; pause(id: number): void; resume(id: number): void };
}

/** Folders listed in the tray's menu; the rest are counted ("and 3 more folders"). */
export const TRAY_FOLDER_LINES = 5;

/** A folder's line in the tray: its own name and its state, in one sentence of the catalog. */
export function folderLine(status: FolderStatus, language: Pick<TrayLanguage, 't'> = ENGLISH): string {
  const { t } = language;
  const name = basename(status.path) || status.path;
  const state = status.state;
  switch (state.kind) {
    case 'watching':
      return t('core.tray.folder.watching', { name });
    case 'scanning':
      return t('core.tray.folder.scanning', { name, count: state.found });
    case 'settling':
      return t('core.tray.folder.settling', { name, count: state.files });
    case 'uploading':
      return t('core.tray.folder.uploading', { name, count: state.files });
    case 'filesPaused':
      return t('core.tray.folder.filesPaused', { name, count: state.files });
    case 'paused': {
      const key = (
        {
          folder: 'pausedFolder',
          queue: 'pausedQueue',
          schedule: 'pausedSchedule',
          battery: 'pausedBattery',
          metered: 'pausedMetered',
        } as const
      )[state.by];
      return t(`core.tray.folder.${key}`, { name });
    }
    case 'problem':
      return t(`core.tray.folder.${state.problem}`, { name });
  }
}

/**
 * The tray menu: open, pause 2/8/24 h or resume, "When done" (with Cancel
 * while it counts down), recent uploads (their pages), an update waiting, quit.
 */
export function trayMenuTemplate(
  state: TrayState,
  recent: ReadonlyArray<{ name: string; link: string | null }>,
  actions: TrayActions,
  language: Pick<TrayLanguage, 't' | 'locale'> = ENGLISH,
): MenuItemConstructorOptions[] {
  const { t, locale } = language;
  const pauseItems: MenuItemConstructorOptions[] =
    state.kind === 'paused' && !state.held
      ? [{ label: t('core.tray.resume'), click: () => actions.resume() }]
      : [
          {
            label: t('core.tray.pause'),
            submenu: [
              ...PAUSE_HOURS.map((hours) => ({
                label: t('core.tray.forHours', { count: hours }),
                click: () => actions.pause(hours),
              })),
              { label: t('core.tray.untilResumed'), click: () => actions.pause(null) },
            ],
          },
        ];
  const recentItems: MenuItemConstructorOptions[] =
    recent.length === 0
      ? [{ label: t('core.tray.noUploads'), enabled: false }]
      : recent.slice(0, 5).map(({ name, link }) => ({
          label: name,
          enabled: link !== null,
          click: () => link && actions.openLink(link),
        }));
  const folders = actions.folders;
  const folderItems: MenuItemConstructorOptions[] = !folders?.statuses.length
    ? []
    : [
        ...folders.statuses.slice(0, TRAY_FOLDER_LINES).map((status): MenuItemConstructorOptions => ({
          label: folderLine(status, language),
          submenu: [
            {
              label: t(status.paused ? 'core.tray.folder.resume' : 'core.tray.folder.pause'),
              click: () => (status.paused ? folders.resume(status.id) : folders.pause(status.id)),
            },
          ],
        })),
        ...(folders.statuses.length > TRAY_FOLDER_LINES
          ? [
              {
                label: t('core.tray.folder.more', { count: folders.statuses.length - TRAY_FOLDER_LINES }),
                enabled: false,
              },
            ]
          : []),
        { type: 'separator' },
      ];
  const snoozeItems = actions.notifications ? snoozeMenu(actions.notifications, language) : [];
  const whenDone = actions.whenDone;
  const whenDoneItems: MenuItemConstructorOptions[] = whenDone
    ? [
        ...(whenDone.countdownEndsAt === null
          ? []
          : [
              {
                label: t('core.tray.cancelAt', {
                  time: new Date(whenDone.countdownEndsAt).toLocaleTimeString(locale, {
                    hour: 'numeric',
                    minute: '2-digit',
                  }),
                }),
                click: () => whenDone.choose(null),
              },
            ]),
        {
          label: t('core.tray.whenDone'),
          submenu: WHEN_DONE_CHOICES.map(([action, key]) => ({
            label: t(key),
            type: 'radio' as const,
            checked: whenDone.action === action,
            click: () => whenDone.choose(action),
          })),
        },
      ]
    : [];
  return [
    { label: state.status, enabled: false },
    { type: 'separator' },
    ...folderItems,
    { label: t('core.tray.open'), click: () => actions.open() },
    ...pauseItems,
    ...whenDoneItems,
    ...snoozeItems,
    { label: t('core.tray.recent'), submenu: recentItems },
    { type: 'separator' },
    ...(actions.update
      ? [{ label: actions.update.label, enabled: actions.update.enabled, click: () => actions.update?.click() }]
      : []),
    { label: t('core.tray.quit'), click: () => actions.quit() },
  ];
}

/** Snoozed: until when, and "Turn notifications on"; else "Snooze notifications" with its choices. */
function snoozeMenu(
  notifications: NonNullable<TrayActions['notifications']>,
  { t, locale }: Pick<TrayLanguage, 't' | 'locale'>,
): MenuItemConstructorOptions[] {
  const { snooze } = notifications;
  const now = Date.now();
  if (!isSnoozed(snooze, now)) {
    return [
      {
        label: t('notify.snooze.heading'),
        submenu: SNOOZE_CHOICES.map((choice) => ({
          label: t(`notify.snooze.${choice}`),
          click: () => notifications.choose(choice),
        })),
      },
    ];
  }
  const until = snooze!.until;
  return [
    {
      label:
        until === null
          ? t('notify.snooze.trayUntilOn')
          : t('notify.snooze.trayUntil', { time: snoozeEndTime(until, now, locale) }),
      enabled: false,
    },
    { label: t('notify.snooze.resume'), click: () => notifications.turnOn() },
  ];
}

/** "When done"'s choices in the tray, in the Queue's order. */
const WHEN_DONE_CHOICES = [
  [null, 'core.tray.whenDoneNothing'],
  ['sleep', 'core.tray.whenDoneSleep'],
  ['shutdown', 'core.tray.whenDoneShutdown'],
  ['quit', 'core.tray.whenDoneQuit'],
] as const;
