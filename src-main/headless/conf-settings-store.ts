import Conf from 'conf';
import type { Settings } from '../../src-shared/model/settings.js';
import type { SettingsStore } from '../core/ports.js';

/** Settings of the headless shell in `settings.json` under the data folder, through conf (what electron-store uses). */
export class ConfSettingsStore implements SettingsStore {
  private readonly conf: Conf<{ settings: unknown }>;

  constructor(dataDir: string) {
    this.conf = new Conf<{ settings: unknown }>({ cwd: dataDir, configName: 'settings', projectName: 'media-sync' });
  }

  read(): unknown {
    return this.conf.get('settings', {});
  }

  write(settings: Settings): void {
    this.conf.set('settings', settings);
  }
}
