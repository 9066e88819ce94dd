import type { CommandContext, HandlersOf } from './handlers.js';

/** The settings: saved, and applied at once by the core. */
export function settingsCommands(core: Pick<CommandContext, 'settings' | 'updateSettings'>): HandlersOf<'settings'> {
  return {
    'settings:get': async () => core.settings(),
    'settings:update': async (change) => core.updateSettings(change),
  };
}
