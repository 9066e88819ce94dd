import { resolve } from 'node:path';
import type { UploadItemView } from '../../../src-shared/ipc/ipc-contract.js';
import { englishText } from '../../../src-shared/i18n/message.js';
import {
  MAX_SETTLE_SECONDS,
  RECORDINGS_SETTLE_SECONDS,
  type FolderNotify,
  type FolderOptionsInput,
} from '../../../src-shared/model/folder-options.js';
import type { FolderPreview } from '../../../src-shared/model/folder-preview.js';
import { previewSentences } from '../../../src-shared/model/folder-preview-text.js';
import { UsageError, describeState, holdText, line } from '../cli-output.js';
import type { Flags } from '../cli-args.js';
import { cliText } from '../cli-words.js';
import { defaultAccount, itemSummary, output, type CommandContext } from '../command-context.js';
import { fileRuleFlags } from '../rule-flags.js';
import { listenForStop, whenAborted } from '../stop-signal.js';
import { OWNER_STOPPED, UploadFollower, accountSignedOut, tokenRefused } from '../upload-follower.js';

/** Kinds after which nothing more happens to an item by itself. */
const ENDED = new Set(['done', 'failed', 'cancelled', 'paused']);

/**
 * `watch DIR…`: each folder joins the watched folders of whoever owns the
 * data folder (the app's list, or this command's own core, which then runs
 * the queue and watches them), and the command says what happens to their
 * files until Ctrl+C; `--once` until what was there is uploaded.
 *
 * Ctrl+C means the same in both cases: this command stops, the folders stay
 * watched. Beside the app, the app goes on watching and uploading; on its
 * own, the queue stops in order, and whichever Media Sync runs the data
 * folder next (the app, `media-sync serve`, the next `watch`) finds what
 * arrived meanwhile. `media-sync` has no command that forgets a folder:
 * Settings → Folders does.
 */
export async function run(_command: string, dirs: string[], context: CommandContext): Promise<number> {
  if (dirs.length === 0) throw new UsageError('watch needs at least one DIR.');
  const { contract, flags, io } = context;
  const options = folderOptions(flags);
  if (flags['dry-run']) return dryRun(dirs, options, context);
  const account = await defaultAccount(context);
  const folders = new Set<number>();
  const ours = (item: UploadItemView) => item.folderId !== null && folders.has(item.folderId);
  const log = (text: string) => {
    if (!flags.json) line(io.stderr, text);
  };
  const uploaded: UploadItemView[] = [];
  const follower = new UploadFollower(contract, account, {
    onItem: (item) => {
      if (!ours(item)) return;
      const state = item.state;
      if (state.kind === 'queued') log(`queued ${item.path}`);
      if (state.kind === 'failed' || state.kind === 'retrying') log(`${item.path}: ${describeState(item)}`);
      if (state.kind === 'done' && state.existing) {
        log(`${item.path}: already on the service (${state.fileId}), not uploaded`);
      }
    },
    onUploaded: (item, link) => {
      if (!ours(item) || item.state.kind !== 'done') return;
      uploaded.push(item);
      log(`uploaded ${item.path} → ${link ?? item.state.fileId}`);
    },
  });
  const stop = listenForStop();
  try {
    for (const dir of dirs) {
      // a DIR on the command line is read from where the command runs; the core takes full paths only
      const path = resolve(dir);
      if (options.afterUpload.kind === 'delete') {
        // said before anything goes: --after delete is the consent, this is what it means here
        const count = await contract.invoke('folders:countToRemove', { path, id: null, options });
        if (count.files > 0) {
          const files = count.more ? `more than ${count.files} files` : `${count.files} file(s)`;
          log(`${path} holds ${files} that will go to the Trash, each once it is uploaded (--after delete).`);
        }
      }
      const folder = await contract.invoke('folders:add', { accountId: account.id, path, options });
      folders.add(folder.id);
      log(`watching ${folder.path}`);
    }
    if (flags.once) {
      await contract.invoke('folders:whenSettled', {});
      const { items } = await contract.invoke('uploads:list', { offset: 0, limit: 10_000 });
      follower.know(items);
      const waiting = new Set(items.filter((item) => ours(item) && !ENDED.has(item.state.kind)).map((item) => item.id));
      const end = await follower.settle(waiting, stop.signal);
      if (end.kind === 'stopped') return stopped(end.signal, context);
      if (end.kind === 'blocked') throw tokenRefused(end.reason);
      if (end.kind === 'signedOut') throw accountSignedOut(account);
      if (end.kind === 'paused') log('The upload queue is paused; the files wait in it.');
      if (end.kind === 'held') log(`The files wait in the queue: ${holdText(end.hold)}`);
      const summaries = uploaded.map((item) => itemSummary(item, follower.links.get(item.id) ?? null));
      output(context, { uploaded: summaries }, () => cliText('cli.uploaded', { count: uploaded.length }));
      const failed = [...waiting].some((id) => follower.items.get(id)?.state.kind === 'failed');
      return end.kind === 'settled' && !failed ? 0 : 1;
    }
    log('Press Ctrl+C to stop.');
    await Promise.race([
      whenAborted(stop.signal),
      contract.gone.then(() => {
        throw new Error(OWNER_STOPPED);
      }),
    ]);
    return stopped(stop.signal.reason as NodeJS.Signals, context);
  } finally {
    stop.dispose();
    follower.dispose();
  }
}

/**
 * `watch DIR… --dry-run`: what each folder would upload with these options,
 * and what they leave alone, counted as the app's preview counts it
 * (folders:preview); nothing is added, watched or queued.
 */
async function dryRun(dirs: string[], options: FolderOptionsInput, context: CommandContext): Promise<number> {
  const previews: (FolderPreview & { path: string })[] = [];
  for (const dir of dirs) {
    const path = resolve(dir);
    previews.push({ path, ...(await context.contract.invoke('folders:preview', { path, id: null, options })) });
  }
  output(context, { previews }, () =>
    previews
      .map((preview) => [preview.path, ...previewSentences(preview, englishText, 'en-US')].join('\n  '))
      .join('\n'),
  );
  return 0;
}

function stopped(signal: NodeJS.Signals, context: CommandContext): number {
  if (!context.flags.json) {
    line(
      context.io.stderr,
      `Stopped on ${signal}: the folders stay watched, and uploads under way are kept; the Media Sync that runs this data folder goes on with them.`,
    );
  }
  return 0;
}

function folderOptions(flags: Flags) {
  return {
    visibility: flags.public ? ('public' as const) : ('private' as const),
    includeSubfolders: !flags['no-subfolders'],
    uploadExisting: !flags['only-new'],
    skipExisting: flags['skip-existing'] ?? false,
    afterUpload: parseAfter(flags.after),
    ignoreGlobs: flags.ignore ?? [],
    settleSeconds: parseSettle(flags.settle),
    checkByPolling: flags.poll ?? false,
    notify: parseNotify(flags.notify),
    ...fileRuleFlags(flags),
  };
}

/** `--settle 30s`, `2m`, `45` (seconds) or `recordings` (2 minutes); absent: the app's default (3 s). */
function parseSettle(value: string | undefined): number | null {
  if (value === undefined) return null;
  if (value === 'recordings') return RECORDINGS_SETTLE_SECONDS;
  const match = /^(\d+)\s*(s|m)?$/i.exec(value.trim());
  const seconds = match ? Number(match[1]) * (match[2]?.toLowerCase() === 'm' ? 60 : 1) : 0;
  if (seconds < 1 || seconds > MAX_SETTLE_SECONDS) {
    throw new UsageError('--settle must be from 1s to 10m (e.g. 30s, 2m), or recordings.');
  }
  return seconds;
}

/** `--notify every|batch|problems|never`: the folder's "Notify me"; absent: a summary per batch. */
function parseNotify(value: string | undefined): FolderNotify {
  if (value === undefined || value === 'batch') return 'batch';
  if (value === 'every') return 'everyFile';
  if (value === 'problems' || value === 'never') return value;
  throw new UsageError('--notify must be every, batch, problems or never.');
}

function parseAfter(value: string | undefined) {
  if (value === undefined || value === 'keep') return { kind: 'keep' as const };
  if (value === 'delete') return { kind: 'delete' as const };
  if (value.startsWith('move:') && value.length > 5) return { kind: 'move' as const, subfolder: value.slice(5) };
  throw new UsageError('--after must be keep, delete or move:SUBFOLDER.');
}
