import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { constants } from 'node:fs';
import { chmod, lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
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
 * Calls `name` from the module `modulePath` (relative to the repository, or a
 * Node built-in such as `node:fs/promises`) as a
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
  const source = modulePath.startsWith('node:') ? modulePath : resolve(ROOT, modulePath);
  if (process.getuid?.() !== 0) {
    const module = (await import(source.startsWith('node:') ? source : new URL(`file://${source}`).href)) as Record<
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

/** Whether this process runs as root: tests of what another user can do need `nobody` (`callWithoutRoot`). */
export const RUNS_AS_ROOT = process.getuid?.() === 0;

/**
 * As `nobody`, opens `path` read-only and takes the read lock an SQLite
 * reader holds on it (its shared lock: 510 bytes from 0x40000002, a POSIX
 * fcntl lock), and keeps it until `release`. Rejects if `nobody` cannot open
 * the file. Perl (always on Debian: perl-base is essential) calls fcntl
 * directly, as no part of Node can. Root only.
 */
export async function holdReadLockWithoutRoot(path: string): Promise<{ release(): Promise<void> }> {
  const script = `
    use Fcntl qw(F_SETLK F_RDLCK SEEK_SET O_RDONLY);
    sysopen(my $fh, $ARGV[0], O_RDONLY) or die "open: $!\\n";
    # struct flock: l_type, l_whence, l_start, l_len, l_pid (Linux, 64 bits)
    my $lock = pack("s s x4 q q i x4", F_RDLCK, SEEK_SET, 0x40000002, 510, 0);
    fcntl($fh, F_SETLK, $lock) or die "lock: $!\\n";
    $| = 1; print "held\\n"; sleep 600;`;
  const child = spawn('perl', ['-e', script, path], { uid: UNPRIVILEGED_ID, gid: UNPRIVILEGED_ID, cwd: '/' });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');
  await Promise.race([
    new Promise<void>((resolve) => child.stdout.on('data', () => output.includes('held') && resolve())),
    exited.then(() => Promise.reject(new Error(`nobody could not lock ${path}: ${output.trim()}`))),
  ]);
  return {
    async release() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/** Every folder and file under `root` (itself included), with its permission bits. */
export async function treeModes(root: string): Promise<Array<{ path: string; folder: boolean; mode: number }>> {
  const found: Array<{ path: string; folder: boolean; mode: number }> = [];
  const visit = async (path: string) => {
    // a file its process removes meanwhile (SQLite's -shm as it closes) is no longer there to check
    const stat = await lstat(path).catch(() => null);
    if (!stat || (!stat.isDirectory() && !stat.isFile())) return;
    found.push({ path, folder: stat.isDirectory(), mode: stat.mode & 0o777 });
    if (stat.isDirectory()) for (const entry of await readdir(path)) await visit(join(path, entry));
  };
  await visit(root);
  return found;
}

/** What an older version, a dotfiles tool or a `chmod -R go+rX` leaves: folders 0755, files 0644. */
export async function openUpTree(root: string): Promise<void> {
  for (const { path, folder } of await treeModes(root)) {
    await chmod(path, folder ? 0o755 : 0o644).catch(() => undefined);
  }
}

/** The entries under `root` another user could read or enter: none once it is private (0700 folders, 0600 files). */
export async function notPrivate(root: string): Promise<string[]> {
  return (await treeModes(root))
    .filter(({ folder, mode }) => mode !== (folder ? 0o700 : 0o600))
    .map(({ path, mode }) => `${path} ${mode.toString(8)}`);
}

/** What `nobody` gets opening `path` to read it: `read`, or the error's code (`EACCES`). */
export async function readAsNobody(path: string): Promise<string | undefined> {
  const outcome = await callWithoutRoot('node:fs/promises', 'access', [path, constants.R_OK]);
  return outcome.ok ? 'read' : outcome.code;
}
