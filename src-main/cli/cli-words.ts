import { englishText, message, type MessageKey, type MessageValues } from '../../src-shared/i18n/message.js';

/**
 * A sentence of the catalogs' `cli` block, in English (the CLI's language),
 * in the plural form its `count` asks for: "1 file uploaded.", "2 files
 * uploaded.". It loads the catalog (and zod): `--help` and `queue ls` import
 * it only where they need it.
 */
export function cliText(key: Extract<MessageKey, `cli.${string}`>, values: MessageValues): string {
  return englishText(message(key, values));
}
