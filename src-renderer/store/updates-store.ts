import type { AppBridge } from '../bridge/app-bridge.js';
import { ReadStore } from './store.js';

/** The app's own update status: `app:updateStatus`, kept by `app:updateChanged` and a check's answer. */
export class UpdatesStore extends ReadStore<'app:updateStatus'> {
  constructor(bridge: AppBridge) {
    super(bridge, 'app:updateStatus', {}, 'app:updateChanged');
  }

  async check() {
    return this.put(await this.bridge.invoke('app:checkForUpdates', {}));
  }

  /** Quits as a quit does (the queue is saved), installs, and starts the new version. */
  install() {
    return this.bridge.invoke('app:installUpdate', {});
  }
}
