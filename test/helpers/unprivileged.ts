import { execFile } from 'node:child_process';
import { chmod } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(import.meta.dirname, '../..');
/** `nobody` on Debian and most Linux systems */
const UNPRIVILEGED_ID = 65_534;

/** What an async function did: its value, or its error's code and message. */
export type Outcome = { ok: true; value: unknown } | { ok: false; code: string | undefined; message: string };

/**
 * Calls `name` from the module `modulePath` (relative to the repository) as a
 * user that file permissions apply to. Root reads every folder whatever its
 * mode, so a permission case would mean nothing there: as root the call runs
 * in a child process as `nobody`, otherwise here. Every folder on the way to
 * the paths used must be searchable by others (see `openToOthers`).
 */
export async function callWithoutRoot(modulePath: string, name: string, args: unknown[]): Promise<Outcome> {
  const url = new URL(`file://${resolve(ROOT, modulePath)}`).href;
  if (process.getuid?.() !== 0) {
    const module = (await import(url)) as Record<string, (...args: unknown[]) => Promise<unknown>>;
    return module[name]!(...args).then(
      (value) => ({ ok: true, value }),
      (error: Error & { code?: string }) => ({ ok: false, code: error.code, message: error.message }),
    );
  }
  const script = `
    const module = await import(${JSON.stringify(url)});
    const args = JSON.parse(process.argv[1]);
    const outcome = await module[${JSON.stringify(name)}](...args).then(
      (value) => ({ ok: true, value }),
      (error) => ({ ok: false, code: error.code, message: error.message }),
    );
    process.stdout.write(JSON.stringify(outcome));`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script, JSON.stringify(args)],
    { cwd: ROOT, uid: UNPRIVILEGED_ID, gid: UNPRIVILEGED_ID, timeout: 30_000 },
  );
  return JSON.parse(stdout) as Outcome;
}

/** mkdtemp makes folders only their owner may enter: lets others through, so `nobody` reaches what is inside. */
export async function openToOthers(path: string): Promise<void> {
  await chmod(path, 0o755);
}
