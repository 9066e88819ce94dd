import { describeErrorValue, type MediaFile } from '../../../src-shared/api/index.js';
import { formatBytes } from '../../../src-shared/model/format.js';
import { FileChangesSchema, visibilityOf, type FileChanges } from '../../../src-shared/model/visibility.js';
import { intFlag, onlineWatchFlag, visibilityFlag } from '../cli-args.js';
import { UsageError, table } from '../cli-output.js';
import { cliText } from '../cli-words.js';
import { flagProblems } from '../flag-problems.js';
import { defaultAccount, output, readStdin, type CommandContext } from '../command-context.js';

/** `files ls | show ID | status ID | edit ID … | rm ID`: the account's files on the service. */
export async function run(_command: string, rest: string[], context: CommandContext): Promise<number> {
  const { contract, flags } = context;
  const [action = 'ls', id] = rest;
  const fileId = () => {
    if (!id) throw new UsageError(`files ${action} needs a file ID.`);
    return id;
  };
  switch (action) {
    case 'ls': {
      const perPage = intFlag(flags['per-page'], 'per-page');
      if (perPage !== undefined && perPage !== 25 && perPage !== 50 && perPage !== 100)
        throw new UsageError('--per-page must be 25, 50 or 100.');
      const { id: accountId } = await defaultAccount(context);
      const page = await contract.invoke('files:list', {
        accountId,
        search: flags.search,
        page: intFlag(flags.page, 'page'),
        perPage,
      });
      output(context, page, () => {
        if (page.data.length === 0) return 'No files.';
        const meta = page.meta
          ? `\n${cliText('cli.filesPage', { page: page.meta.current_page, pages: page.meta.last_page, count: page.meta.total })}`
          : '';
        return table(page.data.map(fileRow)) + meta;
      });
      return 0;
    }
    case 'show': {
      const ref = { accountId: (await defaultAccount(context)).id, fileId: fileId() };
      const file = await contract.invoke('files:get', ref);
      output(context, file, () =>
        table([
          ['ID', file.id],
          ['Name', file.name],
          ['Stored as', file.filename],
          ['Type', file.mime],
          ['Size', formatBytes(file.size_bytes)],
          ['Visibility', visibilityWords(file)],
          ['Password', file.password_protected ? 'yes' : 'no'],
          ['Online watch', file.allow_online_watch ? 'allowed' : 'not allowed'],
          ['Downloads', String(file.downloads)],
          ['Stream views', String(file.stream_views)],
          ['File link', file.urls.page],
          ['Watch page', file.urls.watch],
          ['Embed', file.urls.embed],
          ...(file.description ? [['Description', file.description]] : []),
        ]),
      );
      return 0;
    }
    case 'status': {
      const ref = { accountId: (await defaultAccount(context)).id, fileId: fileId() };
      const status = await contract.invoke('files:status', ref);
      output(context, status, () => {
        const c = status.conversion;
        if (!c) return `${status.file.name}: no conversion.`;
        const error = describeErrorValue(c.error);
        return `${status.file.name}: ${c.status} (${c.stage}), attempt ${c.attempts}, updated ${c.updated_at}${error ? `\n${error}` : ''}`;
      });
      return 0;
    }
    case 'edit': {
      const changes = await editChanges(context);
      const ref = { accountId: (await defaultAccount(context)).id, fileId: fileId() };
      await contract.invoke('files:update', { ...ref, changes });
      const fields = Object.keys(changes);
      output(context, { updated: ref.fileId, fields }, () => `Updated ${ref.fileId}: ${fields.join(', ')}.`);
      return 0;
    }
    case 'rm': {
      const ref = { accountId: (await defaultAccount(context)).id, fileId: fileId() };
      await contract.invoke('files:delete', ref);
      output(context, { deleted: ref.fileId }, () => `Deleted ${ref.fileId}.`);
      return 0;
    }
    default:
      throw new UsageError(`Unknown files action "${action}".`);
  }
}

/** What `files edit` changes; a password read from stdin crosses to the core once and is never printed. */
async function editChanges(context: CommandContext): Promise<FileChanges> {
  const { flags } = context;
  const changes: FileChanges = {};
  if (flags.name !== undefined) changes.name = flags.name;
  if (flags.description !== undefined) changes.description = flags.description || null;
  const visibility = visibilityFlag(flags);
  if (visibility !== undefined) changes.visibility = visibility;
  const watch = onlineWatchFlag(flags);
  if (watch !== undefined) changes.allow_online_watch = watch;
  if (flags['remove-password']) changes.password = null;
  if (flags['password-stdin']) changes.password = await readStdin(context.io);
  if (Object.keys(changes).length === 0)
    throw new UsageError('files edit needs something to change (--name, --description, --public, ...).');
  const checked = FileChangesSchema.safeParse(changes);
  // a password is named by its flag, never shown (only a list's entries are quoted)
  if (!checked.success) {
    throw new UsageError(
      ['Cannot edit:', ...flagProblems(checked.error, changes, { password: '--password-stdin' })].join('\n'),
    );
  }
  return changes;
}

/** Private is not "only you": without a password, anyone with the link opens the file. */
function visibilityWords(file: MediaFile): string {
  if (visibilityOf(file.visibility) === 'public') return 'public';
  return file.password_protected ? 'private' : 'private: not listed publicly; anyone with the link can open it';
}

function fileRow(file: MediaFile): string[] {
  return [
    file.id,
    file.name,
    formatBytes(file.size_bytes),
    visibilityOf(file.visibility),
    file.password_protected ? 'password' : '',
    `${file.downloads} dl`,
    `${file.stream_views} views`,
  ];
}
