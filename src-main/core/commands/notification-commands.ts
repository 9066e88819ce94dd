import { OK, type CoreServices, type HandlersOf } from './handlers.js';

/** The activity feed's notifications. */
export function notificationCommands({
  notifications,
}: Pick<CoreServices, 'notifications'>): HandlersOf<'notifications'> {
  return {
    'notifications:list': async () => notifications.list(),
    'notifications:clear': async () => {
      notifications.clear();
      return OK;
    },
  };
}
