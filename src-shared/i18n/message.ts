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
  /** a value may itself be a message (one level deep): a sentence that quotes another ("Gave up after 5 attempts: …") */
  readonly values?: Readonly<Record<string, string | number | InnerMessage>>;
}
/** A message inside another one's values. */
export interface InnerMessage {
  readonly key: MessageKey;
  readonly values?: MessageValues;
}
export type MessageValues = Readonly<Record<string, string | number>>;

/** Translates a message into one language: i18next's `t(key, values)`. */
export type Translate = (message: Message) => string;

/**
 * A message's values ready for `t`: an inner message translated first with
 * the same `translate`, so the whole sentence is in one language.
 */
export function translatedValues(message: Message, translate: Translate): MessageValues | undefined {
  const values = message.values;
  if (!values) return undefined;
  const flat: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(values)) {
    flat[name] = typeof value === 'object' ? translate(value) : value;
  }
  return flat;
}

type PluralForm = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type WithoutPlural<K extends string> = K extends `${infer Base}_${PluralForm}` ? Base : K;
type Keys<T, Prefix extends string> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${WithoutPlural<K>}` : Keys<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every key of the catalogs ("core.tray.upToDate"); a plural is named without its `_one`/`_other`. */
export type MessageKey = Keys<typeof en, ''>;

export function message(key: MessageKey, values?: Message['values']): Message {
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
  const values = translatedValues(message, englishText);
  return template.replace(/\{\{\s*(\w+)\s*(?:,\s*(\w+)\s*)?\}\}/g, (whole, name: string, format?: string) => {
    const value = values?.[name];
    if (value === undefined) return whole;
    return format === 'number' && typeof value === 'number' ? new Intl.NumberFormat('en').format(value) : String(value);
  });
}
