import type { FakeElectron, FakeMenu, MenuItemLike } from './fake-electron.js';

/** What a test asks of a desktop main process running on the fake Electron (over Node's IPC channel). */
export type ControlRequest =
  | { type: 'snapshot' }
  /** what the window's page would get from `ipcRenderer.invoke(channel, request)` */
  | { type: 'invoke'; channel: string; request: unknown }
  /** Cmd+Q, the OS logging out, an installer: `app.quit()` */
  | { type: 'quit' }
  | { type: 'close-window' }
  | { type: 'answer-open-dialog'; filePaths: string[] }
  | { type: 'click-tray-item'; path: string[] }
  | { type: 'power'; event: 'resume' | 'suspend' | 'unlock-screen' | 'lock-screen' }
  | { type: 'set-online'; online: boolean };

export interface ControlMessage {
  id: number;
  request: ControlRequest;
}

export interface ControlReply {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

export interface MenuSnapshot {
  label?: string;
  role?: string;
  enabled?: boolean;
  submenu?: MenuSnapshot[];
}

/** The fake's state as plain data: what the OS would show a person. */
export function snapshotOf(fake: FakeElectron) {
  return {
    ready: fake.app.isReady(),
    finished: fake.finished,
    timeline: [...fake.timeline],
    windows: fake.windows.map((window) => ({
      id: window.id,
      visible: window.visible,
      destroyed: window.destroyed,
      loadedFile: window.loadedFile,
      url: window.webContents.getURL(),
      missingResources: window.missingResources,
      reloads: window.webContents.reloads,
      webPreferences: window.options['webPreferences'] as Record<string, unknown> | undefined,
      progressBar: [...window.progressBar],
    })),
    tray: fake.tray && {
      tooltip: fake.tray.tooltip,
      image: (fake.tray.image as { path?: string } | null)?.path ?? null,
      menu: menuSnapshot(fake.tray.menu),
    },
    applicationMenu: menuSnapshot(fake.record.applicationMenu),
    notifications: fake.notifications.map(({ options, closed }) => ({
      title: options.title,
      body: options.body,
      actions: options.actions?.map(({ text }) => text),
      closed,
    })),
    badges: [...fake.record.badges],
    blockers: [...fake.blockers.values()],
    errorBoxes: fake.record.errorBoxes,
    protocolClients: fake.record.protocolClients,
    loginItemSettings: fake.record.loginItemSettings,
    appUserModelId: fake.record.appUserModelId,
    openedPaths: fake.record.openedPaths,
  };
}

export type DesktopSnapshot = ReturnType<typeof snapshotOf>;

function menuSnapshot(menu: FakeMenu | null | undefined): MenuSnapshot[] {
  const copy = (items: MenuItemLike[]): MenuSnapshot[] =>
    items.map(({ label, role, enabled, submenu }) => ({ label, role, enabled, submenu: submenu && copy(submenu) }));
  return copy(menu?.items ?? []);
}
