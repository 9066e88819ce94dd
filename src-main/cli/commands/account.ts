import { PLAN_FILE_SIZE_LIMIT_BYTES, PLANS, type Plan } from '../../../src-shared/api/index.js';
import { formatBytes, formatGibibytes } from '../../../src-shared/model/format.js';
import { UsageError, table } from '../cli-output.js';
import { defaultAccount, output, readStdin, type CommandContext } from '../command-context.js';

/** `login`, `logout` and `account`: the account the other commands act for. */
export async function run(command: string, _rest: string[], context: CommandContext): Promise<number> {
  switch (command) {
    case 'login':
      return login(context);
    case 'logout':
      return logout(context);
    default:
      return account(context);
  }
}

/**
 * Signs in the owner of the data folder: this command's own core, or the
 * app's through its socket (the token crosses it once, inward, as the
 * page's sign-in does). The token is read from MEDIA_SYNC_TOKEN or stdin and
 * never printed.
 */
async function login(context: CommandContext): Promise<number> {
  const baseUrl = context.flags['base-url'];
  if (!baseUrl) throw new UsageError('login needs --base-url, e.g. --base-url https://example.com/api/v1');
  const plan = context.flags.plan;
  if (plan !== undefined && !PLANS.some((p) => p === plan))
    throw new UsageError(`--plan must be one of ${PLANS.join(', ')}.`);
  const token = context.io.env['MEDIA_SYNC_TOKEN'] || (await readStdin(context.io));
  if (!token)
    throw new UsageError('No token: pipe it on stdin (media-sync login ... < token.txt) or set MEDIA_SYNC_TOKEN.');
  const account = await context.contract.invoke('account:signIn', { baseUrl, token, plan: plan as Plan | undefined });
  output(
    context,
    { account: { id: account.id, baseUrl: account.baseUrl, username: account.username, plan: account.plan } },
    () =>
      `Signed in as ${account.username ?? 'an account'} at ${account.baseUrl} (${account.plan} plan: files up to ${formatGibibytes(PLAN_FILE_SIZE_LIMIT_BYTES[account.plan])}).`,
  );
  return 0;
}

async function logout(context: CommandContext): Promise<number> {
  const current = await defaultAccount(context);
  await context.contract.invoke('account:signOut', { accountId: current.id });
  output(
    context,
    { signedOut: current.id },
    () =>
      `Signed out of ${current.baseUrl}. The token was deleted from this computer; the account's watched folders and queued files wait for it to sign in again (media-sync login), or move its folders to another account (media-sync folders move ID).`,
  );
  return 0;
}

async function account(context: CommandContext): Promise<number> {
  const current = await defaultAccount(context);
  const remote = await context.contract.invoke('account:summary', { accountId: current.id });
  // where this computer keeps the token: the desktop keyring, a 0600 file, or MEDIA_SYNC_TOKEN
  output(context, { ...remote, tokenStorage: current.tokenStorage }, () =>
    table([
      ['Username', remote.username],
      ['Email', remote.email],
      ['Files', String(remote.files)],
      ['Storage', formatBytes(remote.storage_bytes)],
      [
        'Imports',
        `${remote.remote_jobs.pending} pending, ${remote.remote_jobs.running} running, ${remote.remote_jobs.completed} completed, ${remote.remote_jobs.failed} failed`,
      ],
      ['Token', current.tokenStorage],
    ]),
  );
  return 0;
}
