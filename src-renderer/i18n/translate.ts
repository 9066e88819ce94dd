import { translatedValues, type Message, type Translate } from '../../src-shared/i18n/message.js';
import { t } from './i18n.js';

/**
 * A message from the core or the shared model (a key and values) in the
 * UI's language of the moment. The key is checked against the catalogs
 * where the message is made (`MessageKey`) and when it crosses the
 * contract (`MessageSchema`), not here.
 */
export const translate: Translate = (message: Message) =>
  (t as unknown as (key: string, options?: object) => string)(message.key, translatedValues(message, translate));

/**
 * An error's sentence in the UI's language: the core's own (`text`, a
 * catalog message) translated, a server's `message` as it was sent.
 */
export function errorText(error: { message: string; text?: Message | undefined }): string {
  return error.text ? translate(error.text) : error.message;
}
