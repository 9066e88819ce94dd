import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';

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
 *
 * The child runs a bundle of the module in a folder of its own that others
 * may read, not the checkout: a clone under /root or in a `mktemp -d` folder
 * is closed to `nobody`.
 */
export async function callWithoutRoot(modulePath: string, name: string, args: unknown[]): Promise<Outcome> {
  const source = resolve(ROOT, modulePath);
  if (process.getuid?.() !== 0) {
    const module = (await import(new URL(`file://${source}`).href)) as Record<
      string,
      (...args: unknown[]) => Promise<unknown>
    >;
    return module[name]!(...args).then(
      (value) => ({ ok: true, value }),
      (error: Error & { code?: string }) => ({ ok: false, code: error.code, message: error.message }),
    );
  }
  const folder = await mkdtemp(join(tmpdir(), 'media-sync-unprivileged-'));
  try {
    await openToOthers(folder);
    const bundle = join(folder, 'call.mjs');
    await build({
      stdin: { contents: callerScript(source, name), resolveDir: ROOT, loader: 'ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: bundle,
      logLevel: 'silent',
    });
    await chmod(bundle, 0o644);
    const { stdout } = await promisify(execFile)(process.execPath, [bundle, JSON.stringify(args)], {
      cwd: folder,
      uid: UNPRIVILEGED_ID,
      gid: UNPRIVILEGED_ID,
      timeout: 30_000,
    });
    return JSON.parse(stdout) as Outcome;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The child's whole program: call the function with the arguments given on its command line, print what it did. */
function callerScript(source: string, name: string): string {
  return `
    import * as module from ${JSON.stringify(source)};
    const args = JSON.parse(process.argv[2]);
    const outcome = await module[${JSON.stringify(name)}](...args).then(
      (value) => ({ ok: true, value }),
      (error) => ({ ok: false, code: error.code, message: error.message }),
    );
    process.stdout.write(JSON.stringify(outcome));`;
}

/** mkdtemp makes folders only their owner may enter: lets others through, so `nobody` reaches what is inside. */
export async function openToOthers(path: string): Promise<void> {
  await chmod(path, 0o755);
}
