import { OK, type CommandContext, type HandlersOf } from './handlers.js';

/** The activity feed's notifications. */
export function notificationCommands(core: Pick<CommandContext, 'notifications'>): HandlersOf<'notifications'> {
  return {
    'notifications:list': async () => core.notifications.list(),
    'notifications:clear': async () => {
      core.notifications.clear();
      return OK;
    },
  };
}
