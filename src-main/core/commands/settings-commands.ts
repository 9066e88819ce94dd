import type { CoreServices, HandlersOf } from './handlers.js';

/** The settings: saved, and applied at once by the core. */
export function settingsCommands({
  settings,
  uploads,
  emit,
}: Pick<CoreServices, 'settings' | 'uploads' | 'emit'>): HandlersOf<'settings'> {
  return {
    'settings:get': async () => settings.value(),
    'settings:update': async (change) => {
      const updated = await settings.update(change);
      // the bandwidth limit and the schedule's hold are the queue's status
      emit('uploads:statusChanged', uploads.status());
      return updated;
    },
  };
}
