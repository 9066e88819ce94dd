import type { MenuItemConstructorOptions } from 'electron';
import { join } from 'node:path';
import type { QueueStatus } from '../../src-shared/ipc/ipc-contract.js';
import { formatBytes } from '../../src-shared/model/format.js';
import type { UploadItem } from '../../src-shared/model/upload-state.js';

/** The four faces of the tray icon; assets/tray has a PNG (1x and @2x) for each. */
export const TRAY_KINDS = ['idle', 'uploading', 'paused', 'error'] as const;
export type TrayKind = (typeof TRAY_KINDS)[number];

export interface TrayState {
  kind: TrayKind;
  tooltip: string;
  /** paused by the schedule or the battery, not by the person: Resume would not lift it, so the menu offers Pause */
  held?: true;
}

/** What the tray icon shows: an error wins, then paused (by the person, then by the schedule or the battery), then uploading (with progress), else idle. */
export function trayState(status: QueueStatus, items: readonly UploadItem[], blockedReason: string | null): TrayState {
  if (blockedReason) return { kind: 'error', tooltip: `Media Sync: uploads paused, ${blockedReason}` };
  const failed = items.filter((item) => item.state.kind === 'failed').length;
  if (status.paused) {
    const until = status.pausedUntil === null ? '' : ` until ${new Date(status.pausedUntil).toLocaleTimeString()}`;
    return { kind: 'paused', tooltip: `Media Sync: paused${until}` };
  }
  if (status.hold?.reason === 'battery') {
    return { kind: 'paused', tooltip: 'Media Sync: paused while on battery', held: true };
  }
  if (status.hold?.reason === 'schedule') {
    const until = status.hold.until === null ? '' : ` until ${new Date(status.hold.until).toLocaleTimeString()}`;
    return { kind: 'paused', tooltip: `Media Sync: paused${until} (schedule)`, held: true };
  }
  const running = items.filter((item) => item.state.kind === 'uploading');
  if (running.length > 0) {
    const sent = running.reduce((sum, item) => sum + (item.state.kind === 'uploading' ? item.state.sentBytes : 0), 0);
    const total = running.reduce((sum, item) => sum + item.size, 0);
    const waiting = items.filter((item) => item.state.kind === 'queued' || item.state.kind === 'retrying').length;
    return {
      kind: 'uploading',
      tooltip: `Media Sync: uploading ${running.length} file(s), ${formatBytes(sent)} of ${formatBytes(total)}${waiting ? `, ${waiting} waiting` : ''}`,
    };
  }
  if (failed > 0) return { kind: 'error', tooltip: `Media Sync: ${failed} upload(s) failed` };
  return { kind: 'idle', tooltip: 'Media Sync: up to date' };
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
  pause(hours: 2 | 8 | 24 | null): void;
  resume(): void;
  openLink(url: string): void;
  quit(): void;
  /** "Restart to update", when an update is downloaded */
  update?: { label: string; enabled: boolean; click(): void };
}

/** The tray menu: open, pause 2/8/24 h or resume, recent uploads (their pages), an update waiting, quit. */
export function trayMenuTemplate(
  state: TrayState,
  recent: ReadonlyArray<{ name: string; link: string | null }>,
  actions: TrayActions,
): MenuItemConstructorOptions[] {
  const pauseItems: MenuItemConstructorOptions[] =
    state.kind === 'paused' && !state.held
      ? [{ label: 'Resume uploads', click: () => actions.resume() }]
      : [
          {
            label: 'Pause uploads',
            submenu: [
              { label: 'For 2 hours', click: () => actions.pause(2) },
              { label: 'For 8 hours', click: () => actions.pause(8) },
              { label: 'For 24 hours', click: () => actions.pause(24) },
              { label: 'Until resumed', click: () => actions.pause(null) },
            ],
          },
        ];
  const recentItems: MenuItemConstructorOptions[] =
    recent.length === 0
      ? [{ label: 'No uploads yet', enabled: false }]
      : recent.slice(0, 5).map(({ name, link }) => ({
          label: name,
          enabled: link !== null,
          click: () => link && actions.openLink(link),
        }));
  return [
    { label: state.tooltip.replace(/^Media Sync: /, ''), enabled: false },
    { type: 'separator' },
    { label: 'Open Media Sync', click: () => actions.open() },
    ...pauseItems,
    { label: 'Recent uploads', submenu: recentItems },
    { type: 'separator' },
    ...(actions.update
      ? [{ label: actions.update.label, enabled: actions.update.enabled, click: () => actions.update?.click() }]
      : []),
    { label: 'Quit', click: () => actions.quit() },
  ];
}
