import type { Message, Translate } from '../../src-shared/i18n/message.js';
import { t } from './i18n.js';

/**
 * A message from the core or the shared model (a key and values) in the
 * UI's language of the moment. The key is checked against the catalogs
 * where the message is made (`MessageKey`) and when it crosses the
 * contract (`MessageSchema`), not here.
 */
export const translate: Translate = (message: Message) =>
  (t as unknown as (key: string, options?: object) => string)(message.key, message.values);
