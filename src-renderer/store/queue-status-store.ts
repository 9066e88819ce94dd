import type { IpcRequest } from '../../src-shared/ipc/ipc-contract.js';
import type { AppBridge } from '../bridge/app-bridge.js';
import { ReadStore } from './store.js';

/** Paused, the app's hold, the bandwidth in force, "When done": `uploads:status`, kept by `uploads:statusChanged`. */
export class QueueStatusStore extends ReadStore<'uploads:status'> {
  constructor(bridge: AppBridge) {
    super(bridge, 'uploads:status', {}, 'uploads:statusChanged');
  }

  /** Every upload, until `until` (epoch ms; null: until resumed), or once the chunks being sent are confirmed. */
  async pauseAll(request: IpcRequest<'uploads:pauseAll'>) {
    return this.put(await this.bridge.invoke('uploads:pauseAll', request));
  }

  async resumeAll() {
    return this.put(await this.bridge.invoke('uploads:resumeAll', {}));
  }

  async setWhenDone(action: IpcRequest<'uploads:setWhenDone'>['action']) {
    return this.put(await this.bridge.invoke('uploads:setWhenDone', { action }));
  }
}
