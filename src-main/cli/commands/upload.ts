import { resolve } from 'node:path';
import { UploadDetailsSchema } from '../../../src-shared/api/index.js';
import type { AccountView, UploadItemView } from '../../../src-shared/ipc/ipc-contract.js';
import { onlineWatchFlag, visibilityFlag, type Flags } from '../cli-args.js';
import { ProgressView, UsageError, describeState, holdText, line } from '../cli-output.js';
import { cliText } from '../cli-words.js';
import { flagProblems } from '../flag-problems.js';
import { defaultAccount, itemSummary, output, type CommandContext } from '../command-context.js';
import { listenForStop, signalExitCode } from '../stop-signal.js';
import { UploadFollower, accountSignedOut, tokenRefused, type FollowEnd } from '../upload-follower.js';

/**
 * `upload FILE…`: the files join the queue of whoever owns the data folder
 * (this command's own core, which runs the queue until they are done, or
 * the app's), and the command shows their progress from the core's events
 * until each is done, failed or cancelled, or the queue waits for a person.
 * Then one line per file on stdout, with the link to watch a video or to
 * open any other file; exit code 0 when every one is done.
 */
export async function run(_command: string, paths: string[], context: CommandContext): Promise<number> {
  if (paths.length === 0) throw new UsageError('upload needs at least one FILE.');
  const { contract, flags, io } = context;
  const visibility = visibilityFlag(flags);
  const metadata = uploadMetadata(flags);
  const checked = UploadDetailsSchema.safeParse(metadata);
  if (!checked.success) {
    throw new UsageError(['Cannot upload:', ...flagProblems(checked.error, metadata, {})].join('\n'));
  }
  const account = await defaultAccount(context);
  const view = new ProgressView(io.stderr);
  const ids = new Set<number>();
  const say = (text: string) => {
    if (!flags.json) view.note(text);
  };
  const follower = new UploadFollower(contract, account, {
    onProgress: (item) => {
      if (ids.has(item.id) && !flags.json) view.update(item);
    },
    onItem: (item) => {
      if (!ids.has(item.id)) return;
      if (item.state.kind === 'uploading') {
        if (!flags.json) view.update(item);
        return;
      }
      view.drop(item.id);
      if (item.state.kind === 'retrying') say(`${item.fileName}: ${describeState(item)}`);
    },
  });
  const stop = listenForStop();
  try {
    // paths are made absolute here: the owner of the data folder may run elsewhere
    const added = await contract.invoke('uploads:addPaths', {
      accountId: account.id,
      paths: paths.map((path) => resolve(path)),
      visibility,
      metadata,
      force: flags.force ?? false,
    });
    for (const item of added) {
      ids.add(item.id);
      // the answer says where each item stood when it was added: done means uploaded before
      if (item.state.kind === 'done') {
        say(`${item.fileName}: already uploaded as ${item.state.fileId} (use --force to upload it again)`);
      } else if (item.dzuuid !== null) {
        say(`${item.fileName}: resuming the upload started earlier`);
      }
    }
    follower.know(added);
    const end = await follower.settle(ids, stop.signal);
    const results = [...ids].map((id) => follower.items.get(id)!);
    for (const id of ids) view.drop(id);
    if (end.kind === 'stopped') return stopped(end.signal, results, context);
    explain(end, account, context);
    output(context, { uploads: results.map((item) => itemSummary(item, follower.links.get(item.id) ?? null)) }, () =>
      results.map((item) => finalLine(item, follower.links.get(item.id))).join('\n'),
    );
    return results.every((item) => item.state.kind === 'done') ? 0 : 1;
  } finally {
    stop.dispose();
    follower.dispose();
  }
}

/** The metadata an upload sends once the file exists: only what was asked for. */
function uploadMetadata(flags: Flags) {
  const watch = onlineWatchFlag(flags);
  return {
    ...(flags.name === undefined ? {} : { name: flags.name }),
    ...(flags.description === undefined ? {} : { description: flags.description }),
    ...(watch === undefined ? {} : { allow_online_watch: watch }),
  };
}

function finalLine(item: UploadItemView, link: string | null | undefined): string {
  const state = describeState(item);
  return link ? `${item.fileName}: ${state} ${link}` : `${item.fileName}: ${state}`;
}

/** Why the files wait, when the queue does. */
function explain(end: Exclude<FollowEnd, { kind: 'stopped' }>, account: AccountView, context: CommandContext): void {
  if (end.kind === 'blocked') throw tokenRefused(end.reason);
  if (end.kind === 'signedOut') throw accountSignedOut(account);
  if (context.flags.json || end.kind === 'settled') return;
  line(
    context.io.stderr,
    end.kind === 'paused'
      ? 'The upload queue is paused; the files wait in it (media-sync queue resume lets them go on).'
      : `The files wait in the queue: ${holdText(end.hold)}`,
  );
}

/**
 * Ctrl+C or SIGTERM: a command that runs the queue itself stops it in order
 * (runCli closes the core next; acknowledged chunks stay committed and the
 * same command resumes them); beside the app, the app goes on uploading.
 */
function stopped(signal: NodeJS.Signals, results: UploadItemView[], context: CommandContext): number {
  const count = results.filter((item) => item.state.kind !== 'done').length;
  line(
    context.io.stderr,
    cliText(context.contract.mode === 'own' ? 'cli.stoppedOwn' : 'cli.stoppedBeside', { signal, count }),
  );
  return signalExitCode(signal);
}
