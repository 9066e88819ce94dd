import { EventEmitter } from 'node:events';
import type { UpdaterPort } from '../../src-main/electron/update-service.js';

/** What the next check finds: nothing new, a version (downloaded at once), or an error. */
export type FakeCheck = { kind: 'none' } | { kind: 'update'; version: string } | { kind: 'error'; error: Error };

/**
 * electron-updater's autoUpdater as the app sees it, for tests of the
 * service and the desktop app: events in electron-updater's order
 * (update-available, download-progress, update-downloaded; or
 * update-not-available; or error with a rejected check).
 */
export class FakeUpdater extends EventEmitter {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  logger: unknown = null;
  feedUrl: string | null = null;
  checks = 0;
  installs: Array<[boolean | undefined, boolean | undefined]> = [];
  next: FakeCheck = { kind: 'none' };
  /** electron-updater quits the app once the installer is started; a test passes the fake app's quit */
  onInstall: () => void = () => undefined;

  setFeedURL(options: { provider: string; url: string }): void {
    this.feedUrl = options.url;
  }

  async checkForUpdates(): Promise<unknown> {
    this.checks++;
    await Promise.resolve();
    const next = this.next;
    if (next.kind === 'error') {
      this.emit('error', next.error);
      throw next.error;
    }
    if (next.kind === 'none') {
      this.emit('update-not-available', { version: '1.0.0' });
      return { isUpdateAvailable: false };
    }
    this.emit('update-available', { version: next.version });
    const downloadPromise = (async () => {
      await Promise.resolve();
      this.emit('download-progress', { percent: 50 });
      this.emit('update-downloaded', { version: next.version });
      return [];
    })();
    return { isUpdateAvailable: true, downloadPromise };
  }

  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void {
    this.installs.push([isSilent, isForceRunAfter]);
    setImmediate(this.onInstall);
  }

  /** As the app's port: the service only uses the members above. */
  asPort(): UpdaterPort {
    return this as unknown as UpdaterPort;
  }
}
