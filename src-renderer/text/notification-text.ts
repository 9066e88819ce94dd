import type { Notification } from '../../src-shared/ipc/ipc-contract.js';
import { translate } from '../i18n/translate.js';

/**
 * A core notification's title and body in the UI's language: its `text`
 * translated here (the headless daemon may speak another language than the
 * page), and a body that is not the app's sentence (a server's reason, the
 * file names) as the core sent it.
 */
export function notificationText(notification: Notification): { title: string; body: string } {
  const { title, body } = notification.text;
  return { title: translate(title), body: body ? translate(body) : notification.body };
}
