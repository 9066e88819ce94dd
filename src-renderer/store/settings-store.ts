import type { SettingsChange } from '../../src-shared/model/settings.js';
import type { AppBridge } from '../bridge/app-bridge.js';
import { ReadStore } from './store.js';

/** The settings: `settings:get`, then what each change answers. */
export class SettingsStore extends ReadStore<'settings:get'> {
  constructor(bridge: AppBridge) {
    super(bridge, 'settings:get', {});
  }

  /** Saves the fields of `change` only, so a draft elsewhere never undoes another's change. */
  async update(change: SettingsChange) {
    return this.put(await this.bridge.invoke('settings:update', change));
  }
}
