import { describe, expect, it } from 'vitest';
import { CoreLanguage } from '../../../src-main/common/i18n.js';
import { Shutdown } from '../../../src-main/common/shutdown.js';
import type { ElectronModule } from '../../../src-main/electron/electron-module.js';
import { TrayController } from '../../../src-main/electron/tray-controller.js';
import { message } from '../../../src-shared/i18n/message.js';
import { ContractError } from '../../../src-shared/ipc/contract-client.js';
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
