/** Sizes as people read them: decimal units, like the spec's "90 MB" (10.0 KB, 4.29 GB). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

/** Plan limits are binary gigabytes ("4 GB" is 4 GiB): say them the same way. */
export function formatGibibytes(bytes: number): string {
  const value = bytes / 1024 ** 3;
  return `${Number.isInteger(value) ? value : value.toFixed(2)} GiB`;
}
