import type { FolderPolling, FolderState, FolderStatus } from '../../../src-shared/model/folder-status.js';
import { formatBytes, formatDuration } from '../../../src-shared/model/format.js';
import { UsageError, line, table } from '../cli-output.js';
import { cliText } from '../cli-words.js';
import { defaultAccount, output, type CommandContext } from '../command-context.js';

/**
 * `folders [ls] | pause ID | resume ID | rescan ID | move ID`: the watched
 * folders of whoever owns the data folder, each with its state and counts as
 * the app's Folders view shows them; --json prints the statuses
 * (folders:status). `move` gives a folder whose account is signed out to the
 * account the other commands act for.
 */
export async function run(_command: string, rest: string[], context: CommandContext): Promise<number> {
  const { contract, io } = context;
  const [action = 'ls', idText] = rest;
  const report = (status: FolderStatus) => {
    output(context, status, () => `#${status.id} ${status.path}: ${describeFolderState(status.state)}`);
    return 0;
  };
  switch (action) {
    case 'ls': {
      const statuses = await contract.invoke('folders:status', {});
      if (contract.mode === 'own' && statuses.length > 0 && !context.flags.json) {
        line(io.stderr, 'No Media Sync runs on this data folder: its folders are not being watched now.');
      }
      output(context, statuses, () => {
        if (statuses.length === 0) return 'No folder is watched. Add one with: media-sync watch DIR';
        return table(
          statuses.map((status) => [
            `#${status.id}`,
            status.path,
            describeFolderState(status.state) + (status.polling ? `; ${describePolling(status.polling)}` : ''),
            describeCounts(status.counts),
          ]),
        );
      });
      return 0;
    }
    case 'pause':
    case 'resume':
      return report(await contract.invoke(`folders:${action}`, { id: folderId(idText, action) }));
    case 'rescan':
      return report(await contract.invoke('folders:rescan', { id: folderId(idText, action) }));
    case 'move': {
      const id = folderId(idText, action);
      const account = await defaultAccount(context);
      const folder = await contract.invoke('folders:move', { id, accountId: account.id });
      output(context, folder, () => `#${folder.id} ${folder.path} now uploads to ${accountName(account)}.`);
      return 0;
    }
    default:
      throw new UsageError(`Unknown folders action "${action}".`);
  }
}

/** A folder's state in English words, as the tray and the Folders view say it. */
export function describeFolderState(state: FolderState): string {
  const time = (at: number) => new Date(at).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  switch (state.kind) {
    case 'watching':
      return `up to date since ${time(state.since)}`;
    case 'scanning':
      return cliText('cli.folderScanning', { count: state.found });
    case 'settling':
      return cliText('cli.folderSettling', { count: state.files });
    case 'uploading': {
      const bytes = { count: state.files, done: formatBytes(state.bytesDone), total: formatBytes(state.bytesTotal) };
      return state.secondsLeft === null
        ? cliText('cli.folderUploading', bytes)
        : cliText('cli.folderUploadingLeft', { ...bytes, left: formatDuration(state.secondsLeft) });
    }
    case 'filesPaused':
      return cliText('cli.folderFilesPaused', {
        count: state.files,
        done: formatBytes(state.bytesDone),
        total: formatBytes(state.bytesTotal),
      });
    case 'paused': {
      const until = state.until === null ? '' : ` until ${new Date(state.until).toLocaleString()}`;
      const by = {
        folder: 'paused',
        queue: 'uploads paused',
        schedule: 'paused by the upload schedule',
        battery: 'paused while on battery',
        metered: 'paused on a metered network',
      }[state.by];
      return `${by}${until}`;
    }
    case 'problem':
      if (state.problem === 'accountGone') {
        const again = state.account
          ? `sign in to ${accountName(state.account)} again (media-sync login --base-url ${state.account.baseUrl}), or `
          : '';
        return `its account is signed out: its files wait; ${again}move it to the signed-in account (media-sync folders move ID)`;
      }
      return {
        missing: 'folder not found: is its drive connected? It is watched again once it is back',
        notConnected: 'not connected: is its drive plugged in? It is watched again once it is back',
        unreadable: 'cannot be read: let the user Media Sync runs as read it',
        diskFull: 'this folder’s disk is full: files cannot be moved after their upload',
        dataDiskFull: 'Media Sync’s disk is full: new files wait until its data folder’s disk has room',
        signedOut: 'the account’s token was refused: sign in again (media-sync login)',
      }[state.problem];
  }
}

/** "network folder (NFS): checked every minute", as the folder's card says it. */
export function describePolling(polling: FolderPolling): string {
  const [count, unit] =
    polling.everySeconds % 60 === 0 ? [polling.everySeconds / 60, 'minute'] : [polling.everySeconds, 'second'];
  const every = count === 1 ? `every ${unit}` : `every ${count} ${unit}s`;
  return polling.why === 'network'
    ? `network folder (${polling.fileSystem}): checked ${every}`
    : `checked by polling ${every}`;
}

/** "demo at http://127.0.0.1:8790/api/v1" */
function accountName(account: { username: string | null; baseUrl: string }): string {
  return `${account.username ?? 'the account'} at ${account.baseUrl}`;
}

function describeCounts(counts: FolderStatus['counts']): string {
  return `${counts.uploaded} uploaded (${counts.uploadedToday} today), ${counts.failed} failed, ${counts.skipped} skipped`;
}

function folderId(text: string | undefined, action: string): number {
  if (text === undefined) throw new UsageError(`folders ${action} needs a folder ID (see media-sync folders).`);
  const id = Number(text);
  if (!Number.isInteger(id) || id < 1) throw new UsageError(`Not a folder id: ${text}`);
  return id;
}
