import {
  readSettings,
  SettingsSchema,
  type Settings,
  type SettingsChange,
} from '../../../src-shared/model/settings.js';
import type { Log } from '../../common/file-log.js';
import type { SettingsStore, ShellPorts } from '../ports.js';

/** The settings: read once, saved on each change, and applied at once. */
export interface SettingsService {
  value(): Settings;
  /** saves the change, applies it, and answers the settings as they are now */
  update(change: SettingsChange): Promise<Settings>;
}

export interface SettingsServiceOptions {
  store: SettingsStore;
  shell: Pick<ShellPorts, 'setLaunchAtLogin'>;
  /** makes the other services follow the settings after a change (the core applies the first ones once it is built) */
  apply(settings: Settings): void;
  log?: Pick<Log, 'warn'>;
}

export function createSettingsService(options: SettingsServiceOptions): SettingsService {
  const { settings, dropped } = readSettings(options.store.read());
  if (dropped.length > 0) {
    options.log?.warn(`Settings that could not be read took their defaults: ${dropped.join(', ')}.`);
  }
  let current = settings;
  return {
    value: () => current,
    async update(change) {
      const previous = current;
      current = SettingsSchema.parse({
        ...previous,
        ...change,
        notifications: { ...previous.notifications, ...change.notifications },
      });
      options.store.write(current);
      options.apply(current);
      if (change.launchAtLogin !== undefined && change.launchAtLogin !== previous.launchAtLogin) {
        await options.shell.setLaunchAtLogin(change.launchAtLogin);
      }
      return current;
    },
  };
}
