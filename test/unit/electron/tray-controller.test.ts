import { describe, expect, it } from 'vitest';
import { CoreLanguage } from '../../../src-main/common/i18n.js';
import { Shutdown } from '../../../src-main/common/shutdown.js';
import type { ElectronModule } from '../../../src-main/electron/electron-module.js';
import { TrayController } from '../../../src-main/electron/tray-controller.js';
import { message } from '../../../src-shared/i18n/message.js';
import { ContractError } from '../../../src-shared/ipc/contract-client.js';
import type { MediaSyncBridge } from '../../../src-shared/ipc/ipc-contract.js';
import { snoozeEndTime, type NotificationSnooze } from '../../../src-shared/model/notification-snooze.js';
import { createFakeElectron, menuItem } from '../../helpers/fake-electron/fake-electron.js';
import { queueStatus } from '../../helpers/queue-fixtures.js';

describe('the tray', () => {
  it('logs a command of its menu that the core refused, and says why in a notification', async () => {
    const fake = createFakeElectron({ paths: { userData: '/nowhere' }, appPath: '/nowhere/app', autoReady: false });
    fake.becomeReady();
    const warnings: string[] = [];
    const refusal = new ContractError({
      code: 'UNAVAILABLE',
      message: 'Uploads cannot be paused now.',
      requestId: null,
      text: message('core.errors.noWhenDone'),
    });
    const language = new CoreLanguage(() => ['en']);
    const tray = new TrayController({
      electron: fake.module as unknown as ElectronModule,
      core: { language },
      contract: { invoke: () => Promise.reject(refusal), on: () => () => undefined },
      log: { info: () => undefined, warn: (text) => warnings.push(text), error: () => undefined },
      updates: null,
      assetsDir: '/nowhere/assets',
      actions: { showWindow() {}, openExternal() {}, installUpdate() {}, quit() {} },
      shutdown: new Shutdown(),
    });
    const status = queueStatus();
    tray.update({ status, overview: { running: [], waiting: 0, failed: 0 }, folders: [], accounts: [] });

    menuItem(fake.tray?.menu, ['Pause uploads', 'Until resumed'])!.click!();
    await new Promise((resolve) => setImmediate(resolve));

    expect(warnings).toEqual(['A command of the tray failed: Uploads cannot be paused now.']);
    expect(fake.notifications.map(({ options }) => options)).toEqual([
      { title: 'Media Sync could not do that', body: language.translate(message('core.errors.noWhenDone')) },
    ]);
  });
});

describe('the tray: notifications', () => {
  function openTray() {
    const fake = createFakeElectron({ paths: { userData: '/nowhere' }, appPath: '/nowhere/app', autoReady: false });
    fake.becomeReady();
    const invoked: Array<[string, unknown]> = [];
    const listeners = new Map<string, (payload: unknown) => void>();
    const tray = new TrayController({
      electron: fake.module as unknown as ElectronModule,
      core: { language: new CoreLanguage(() => ['en']) },
      contract: {
        invoke: (name: string, request: unknown) => (invoked.push([name, request]), Promise.resolve({})),
        on: (name: string, listener: (payload: unknown) => void) => (listeners.set(name, listener), () => undefined),
      } as unknown as MediaSyncBridge,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      updates: null,
      assetsDir: '/nowhere/assets',
      actions: { showWindow() {}, openExternal() {}, installUpdate() {}, quit() {} },
      shutdown: new Shutdown(),
    });
    const show = (snooze: NotificationSnooze) =>
      tray.update({
        status: queueStatus(),
        overview: { running: [], waiting: 0, failed: 0 },
        folders: [],
        accounts: [],
        snooze,
      });
    return { fake, invoked, listeners, show };
  }

  it('snoozes for an hour from its menu, says until when, and turns them on again', () => {
    const { fake, invoked, show } = openTray();
    show(null);
    const before = Date.now();
    menuItem(fake.tray?.menu, ['Snooze notifications', 'For 1 hour'])!.click!();
    const [name, request] = invoked.at(-1)!;
    expect(name).toBe('settings:update');
    const until = (request as { notificationsSnoozed: { until: number } }).notificationsSnoozed.until;
    expect(until - before).toBeGreaterThanOrEqual(3_600_000);
    expect(until - Date.now()).toBeLessThanOrEqual(3_600_000);

    show({ until });
    const time = snoozeEndTime(until, Date.now(), 'en');
    expect(menuItem(fake.tray?.menu, [`Notifications snoozed until ${time}`])?.enabled).toBe(false);
    expect(menuItem(fake.tray?.menu, ['Snooze notifications'])).toBeUndefined();
    menuItem(fake.tray?.menu, ['Turn notifications on'])!.click!();
    expect(invoked.at(-1)).toEqual(['settings:update', { notificationsSnoozed: null }]);

    show({ until: null });
    expect(menuItem(fake.tray?.menu, ['Notifications snoozed until you turn them on'])).toBeDefined();
  });

  it('shows no OS notification for a quiet one (snoozed, or left to the Activity panel)', () => {
    const { fake, listeners } = openTray();
    const added = listeners.get('notifications:added')!;
    const base = { kind: 'uploadsDone', text: { title: { key: 'core.notifications.uploaded' }, body: null } };
    added({ ...base, id: 1, title: 'Uploaded', body: 'a.mp4', at: 1, link: null, requestId: null, quiet: true });
    added({ ...base, id: 2, title: 'Uploaded', body: 'b.mp4', at: 2, link: null, requestId: null });
    expect(fake.notifications.map(({ options }) => options)).toEqual([{ title: 'Uploaded', body: 'b.mp4' }]);
  });
});
