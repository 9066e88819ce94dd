import { z } from 'zod';
import { en } from './en.js';

/**
 * A sentence as a catalog key and its values, not yet in any language: the
 * side that shows it translates it into its own (the renderer into the
 * page's, the core into its own for the tray and OS notifications). The
 * shared model returns these where the core and the UI may speak different
 * languages (the headless daemon and a browser), so it never sends English.
 */
export interface Message {
  readonly key: MessageKey;
  readonly values?: MessageValues;
}
export type MessageValues = Readonly<Record<string, string | number>>;

/** Translates a message into one language: i18next's `t(key, values)`. */
export type Translate = (message: Message) => string;

type PluralForm = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type WithoutPlural<K extends string> = K extends `${infer Base}_${PluralForm}` ? Base : K;
type Keys<T, Prefix extends string> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${WithoutPlural<K>}` : Keys<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every key of the catalogs ("core.tray.upToDate"); a plural is named without its `_one`/`_other`. */
export type MessageKey = Keys<typeof en, ''>;

export function message(key: MessageKey, values?: MessageValues): Message {
  return values ? { key, values } : { key };
}

/** True when the English catalog has `key`, as a message or as a plural's base. */
export function isMessageKey(key: string): key is MessageKey {
  const parts = key.split('.');
  const last = parts.pop() ?? '';
  let node: unknown = en;
  for (const part of parts) {
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined;
  }
  if (typeof node !== 'object' || node === null) return false;
  const leaves = node as Record<string, unknown>;
  return typeof leaves[last] === 'string' || typeof leaves[`${last}_other`] === 'string';
}

/** A message crossing the ipc contract: its key must be one of the catalogs'. */
export const MessageSchema = z.object({
  key: z.custom<MessageKey>((value) => typeof value === 'string' && isMessageKey(value), 'Not a message key.'),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

/**
 * A message in English, without i18next: for the shared model's English
 * strings (a contract field kept for the CLI, the log and older readers) and
 * for tests. Plurals by `count` (Intl.PluralRules('en')), `{{name}}` replaced,
 * `{{name, number}}` written with Intl.NumberFormat; the catalogs use no
 * other i18next feature.
 */
export function englishText(message: Message): string {
  const parts = message.key.split('.');
  const last = parts.pop() ?? '';
  let node: unknown = en;
  for (const part of parts) node = (node as Record<string, unknown>)[part];
  const leaves = node as Record<string, string | undefined>;
  const count = message.values?.['count'];
  const plural = typeof count === 'number' ? leaves[`${last}_${new Intl.PluralRules('en').select(count)}`] : undefined;
  const template = plural ?? leaves[last] ?? leaves[`${last}_other`] ?? message.key;
  return template.replace(/\{\{\s*(\w+)\s*(?:,\s*(\w+)\s*)?\}\}/g, (whole, name: string, format?: string) => {
    const value = message.values?.[name];
    if (value === undefined) return whole;
    return format === 'number' && typeof value === 'number' ? new Intl.NumberFormat('en').format(value) : String(value);
  });
}
