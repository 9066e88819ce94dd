import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SUPPORT_FILE_DAYS } from '../../../src-shared/ipc/ipc-contract.js';
import { formatBytes } from '../../../src-shared/model/format.js';
import { UsageError, table } from '../cli-output.js';
import { output, type CommandContext } from '../command-context.js';

/**
 * `support-file [--days N] [--include-names] [--out FILE]`: the support
 * file (docs/ui.md, Support and logs) of whoever owns the data folder,
 * written to FILE or to the current folder under its dated name; prints
 * where, how large and what is in it.
 */
export async function run(_command: string, rest: string[], context: CommandContext): Promise<number> {
  const { contract, flags } = context;
  if (rest.length > 0) throw new UsageError('media-sync support-file takes no arguments (--out FILE names the file).');
  const days = flags.days === undefined ? SUPPORT_FILE_DAYS.default : Number(flags.days);
  if (!Number.isInteger(days) || days < SUPPORT_FILE_DAYS.min || days > SUPPORT_FILE_DAYS.max) {
    throw new UsageError(`--days must be a whole number from ${SUPPORT_FILE_DAYS.min} to ${SUPPORT_FILE_DAYS.max}.`);
  }
  const file = await contract.invoke('support:build', { days, includeNames: flags['include-names'] ?? false });
  const path = resolve(flags.out ?? file.fileName);
  // only its owner reads it until they send it
  await writeFile(path, Buffer.from(file.data, 'base64'), { mode: 0o600 });
  output(context, { path, size: file.size, entries: file.entries }, () =>
    [
      `Saved the support file ${path} (${formatBytes(file.size)}):`,
      table(file.entries.map((entry) => [entry.name, formatBytes(entry.size)])),
      'Its README.txt says what was removed.',
    ].join('\n'),
  );
  return 0;
}
