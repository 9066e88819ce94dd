import type { NativeImage, Notification, Tray } from 'electron';
import { ContractError } from '../../src-shared/ipc/contract-client.js';
import type { AccountView, MediaSyncBridge, QueueStatus } from '../../src-shared/ipc/ipc-contract.js';
import type { FolderStatus } from '../../src-shared/model/folder-status.js';
import type { MessageKey } from '../../src-shared/i18n/message.js';
import { pauseUntil } from '../../src-shared/model/queue-pause.js';
import { snoozeFor, type NotificationSnooze, type SnoozeChoice } from '../../src-shared/model/notification-snooze.js';
import type { WhenDoneAction, WhenDoneView } from '../../src-shared/model/when-done.js';
import { DisposableStore } from '../common/disposable.js';
import type { Log } from '../common/file-log.js';
import type { ShutdownPort } from '../common/shutdown.js';
import type { AppCore } from '../core/app-core.js';
import type { UpdatesPort } from '../core/ports.js';
import type { ElectronModule } from './electron-module.js';
import { trayIconPath, trayMenuTemplate, trayState, type QueueOverview, type TrayKind } from './tray-menu.js';
import { updateMenuItem } from './update-service.js';
import { formatDuration } from '../../src-shared/model/format.js';
import type { QueueProgress } from './queue-progress.js';

/** What the tray's menu and the OS notifications can do in the app. */
export interface TrayControllerActions {
  showWindow(): void;
  openExternal(url: string): void;
  installUpdate(): void;
  quit(): void;
}

export interface TrayControllerOptions {
  electron: ElectronModule;
  /** the core's language, for the menu and the tooltip */
  core: Pick<AppCore, 'language'>;
  /** the core's contract: what the tray shows comes from it, and what a person does in its menu goes through it */
  contract: MediaSyncBridge;
  log: Log;
  /** the desktop's updates: "Restart to update" while one waits */
  updates: Pick<UpdatesPort, 'status'> | null;
  assetsDir: string;
  actions: TrayControllerActions;
  /**
   * the stop: the tray lets go of the core in `intake`, and the icon stays
   * until `release`, the very end
   */
  shutdown: ShutdownPort;
}

/** What the tray shows, as the core's contract answers it (uploads:status, uploads:overview, folders:status, account:list). */
export interface TrayView {
  status: QueueStatus;
  overview: QueueOverview;
  folders: readonly FolderStatus[];
  /** an account the service refused is the tray's error */
  accounts: readonly AccountView[];
  /** the notifications' snooze (settings), for "Snooze notifications"; absent: the menu has none */
  snooze?: NotificationSnooze;
}

const COUNTDOWN_TEXT: Record<WhenDoneAction, MessageKey> = {
  sleep: 'core.tray.countdownSleep',
  shutdown: 'core.tray.countdownShutdown',
  quit: 'core.tray.countdownQuit',
};

/**
 * The tray icon (its image, tooltip and menu, in the core's language) and the
 * OS notifications: what stays of the app when its window is closed. It
 * shows the state it is given (`update`); the desktop app decides how often.
 *
 * "When done" counting down is an OS notification of its own, whatever the
 * notification settings say: a person must see that the computer is about
 * to sleep or shut down. It carries a Cancel button where Electron offers
 * notification actions (macOS); elsewhere a click opens the window, whose
 * Queue has Cancel, as the tray's menu does.
 */
export class TrayController {
  private readonly tray: Tray;
  private readonly images = new Map<TrayKind, NativeImage>();
  private kind: TrayKind = 'idle';
  private readonly recent: Array<{ name: string; link: string | null }> = [];
  private readonly disposables = new DisposableStore();
  /** the countdown notification on screen, and the countdown it is about */
  private countdown: { endsAt: number; toast: Notification } | null = null;

  constructor(private readonly options: TrayControllerOptions) {
    const { electron, contract, actions, shutdown } = options;
    shutdown.onWillShutdown('intake', () => this.disposables.dispose());
    shutdown.onWillShutdown('release', () => this.tray.destroy());
    this.tray = new electron.Tray(this.image('idle'));
    // Windows and macOS: a click on the icon opens the window (Linux trays only show the menu)
    this.tray.on('click', () => actions.showWindow());
    this.disposables.add(
      contract.on('uploads:uploaded', ({ name, file }) => {
        this.recent.unshift({ name, link: file?.urls.page ?? null });
        this.recent.length = Math.min(this.recent.length, 5);
      }),
    );
    this.disposables.add(
      contract.on('notifications:added', (notification) => {
        // snoozed, or the folder's "Notify me" leaves it to the Activity panel
        if (notification.quiet) return;
        const toast = new electron.Notification({ title: notification.title, body: notification.body });
        toast.on('click', () => (notification.link ? actions.openExternal(notification.link) : actions.showWindow()));
        toast.show();
      }),
    );
  }

  /**
   * Shows the queue's state: the icon, the tooltip (files, bytes and time
   * left from `progress`), the menu with "When done", the recent uploads,
   * the watched folders and an update waiting, and the countdown's
   * notification.
   */
  update({ status, overview, folders, accounts, snooze }: TrayView, progress?: QueueProgress): void {
    const { core, contract, updates, actions } = this.options;
    const blocked = accounts.find((account) => account.blocked)?.blocked;
    const reason = blocked ? (blocked.text ? core.language.translate(blocked.text) : blocked.message) : null;
    const state = trayState(status, overview, reason, core.language, progress);
    // only on a change of state: some Linux trays flicker when the image is set again
    if (state.kind !== this.kind) this.tray.setImage(this.image((this.kind = state.kind)));
    this.tray.setToolTip(state.tooltip);
    const update = updates && updateMenuItem(updates.status(), core.language);
    const template = trayMenuTemplate(
      state,
      this.recent,
      {
        open: () => actions.showWindow(),
        pause: (hours) => this.run(contract.invoke('uploads:pauseAll', { until: pauseUntil(hours, Date.now()) })),
        resume: () => this.run(contract.invoke('uploads:resumeAll', {})),
        openLink: (url) => actions.openExternal(url),
        quit: () => actions.quit(),
        whenDone: {
          action: status.whenDone?.action ?? null,
          countdownEndsAt: status.whenDone?.countdownEndsAt ?? null,
          choose: (action) => this.chooseWhenDone(action),
        },
        ...(update ? { update: { ...update, click: () => actions.installUpdate() } } : {}),
        ...(snooze === undefined
          ? {}
          : {
              notifications: {
                snooze,
                choose: (choice: SnoozeChoice) => this.snooze(snoozeFor(choice, Date.now())),
                turnOn: () => this.snooze(null),
              },
            }),
        folders: {
          statuses: folders,
          pause: (id) => this.run(contract.invoke('folders:pause', { id })),
          resume: (id) => this.run(contract.invoke('folders:resume', { id })),
        },
      },
      core.language,
    );
    this.tray.setContextMenu(this.options.electron.Menu.buildFromTemplate(template));
    this.showCountdown(status.whenDone);
  }

  private snooze(notificationsSnoozed: NotificationSnooze): void {
    this.run(this.options.contract.invoke('settings:update', { notificationsSnoozed }));
  }

  private chooseWhenDone(action: WhenDoneAction | null): void {
    this.run(this.options.contract.invoke('uploads:setWhenDone', { action: action ?? 'nothing' }));
  }

  /**
   * A command a person gave in the menu or a notification: a refusal is
   * written to the log and shown as a notification, never dropped.
   */
  private run(command: Promise<unknown>): void {
    command.catch((error: unknown) => {
      const { electron, core, log } = this.options;
      const reason = error instanceof Error ? error.message : String(error);
      log.warn(`A command of the tray failed: ${reason}`);
      const body = error instanceof ContractError && error.text ? core.language.translate(error.text) : reason;
      new electron.Notification({ title: core.language.t('core.tray.actionFailed'), body }).show();
    });
  }

  /** One notification per countdown: shown when it starts, closed when it ends or is cancelled. */
  private showCountdown(whenDone: WhenDoneView | null): void {
    const endsAt = whenDone?.countdownEndsAt ?? null;
    if (this.countdown && this.countdown.endsAt !== endsAt) {
      this.countdown.toast.close();
      this.countdown = null;
    }
    if (!whenDone || endsAt === null || this.countdown) return;
    const { electron, core, actions } = this.options;
    const { t, locale } = core.language;
    const seconds = Math.max(0, Math.round((endsAt - Date.now()) / 1000));
    const toast = new electron.Notification({
      title: t('core.tray.countdownTitle'),
      body: t(COUNTDOWN_TEXT[whenDone.action], { time: formatDuration(seconds, locale) }),
      actions: [{ type: 'button', text: t('core.tray.cancel') }],
    });
    toast.on('action', () => this.chooseWhenDone(null));
    toast.on('click', () => actions.showWindow());
    toast.show();
    this.countdown = { endsAt, toast };
  }

  private image(kind: TrayKind): NativeImage {
    let found = this.images.get(kind);
    if (!found) {
      found = this.options.electron.nativeImage.createFromPath(trayIconPath(kind, this.options.assetsDir));
      this.images.set(kind, found);
    }
    return found;
  }
}
