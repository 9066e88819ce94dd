/** Intl formatters by kind, locale and options: Intl builds are costly, and a list formats a cell per row. */
const formats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.ListFormat>();

function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.ListFormat>(
  kind: string,
  locale: string,
  options: object,
  make: () => F,
): F {
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key) as F | undefined;
  if (!format) formats.set(key, (format = make()));
  return format;
}

/** A cached `Intl.NumberFormat` for `locale` with `options`. */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return cached('number', locale, options, () => new Intl.NumberFormat(locale, options));
}

/** A cached `Intl.DateTimeFormat` for `locale` with `options`. */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions = {}): Intl.DateTimeFormat {
  return cached('dateTime', locale, options, () => new Intl.DateTimeFormat(locale, options));
}

/** A cached `Intl.ListFormat` for `locale` with `options`. */
export function listFormat(locale: string, options: Intl.ListFormatOptions = {}): Intl.ListFormat {
  return cached('list', locale, options, () => new Intl.ListFormat(locale, options));
}

/**
 * Sizes as people read them: decimal units, like the spec's "90 MB" (10.0 KB,
 * 4.29 GB), the number written for `locale` (German: "4,29 GB"). The units
 * are the same symbols in every language the UI has.
 */
export function formatBytes(bytes: number, locale = 'en-US'): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 ? 0 : value < 10 ? 2 : 1;
  const number = numberFormat(locale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  }).format(unit === 0 ? Math.round(value) : value);
  return `${number} ${units[unit]}`;
}

/** Plan limits are binary gigabytes ("4 GB" is 4 GiB): say them the same way. */
export function formatGibibytes(bytes: number, locale = 'en-US'): string {
  const value = bytes / 1024 ** 3;
  const digits = Number.isInteger(value) ? 0 : 2;
  const number = numberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
  return `${number} GiB`;
}

/** "1.20 MB/s", the number written for `locale` ("1,20 MB/s" in German). */
export function formatRate(bytesPerSecondValue: number, locale = 'en-US'): string {
  return `${formatBytes(Math.round(bytesPerSecondValue), locale)}/s`;
}

/**
 * A wait or a time left as people say it: "37 s", "4 min 10 s", "2 h 5 min".
 * The unit symbols are SI's and read the same in English and German; the
 * numbers are written for `locale`.
 */
export function formatDuration(seconds: number, locale = 'en-US'): string {
  const n = (value: number) => numberFormat(locale).format(value);
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${n(s)} s`;
  if (s < 3_600) {
    const rest = s % 60;
    return rest === 0 ? `${n(Math.floor(s / 60))} min` : `${n(Math.floor(s / 60))} min ${n(rest)} s`;
  }
  const minutes = Math.floor((s % 3_600) / 60);
  return minutes === 0 ? `${n(Math.floor(s / 3_600))} h` : `${n(Math.floor(s / 3_600))} h ${n(minutes)} min`;
}
