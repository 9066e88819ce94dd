import { cp, mkdir, mkdtemp, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { NATIVE_BINDING_PATH } from '../src-main/electron/runtime-paths.js';

/**
 * Builds better-sqlite3 for the installed Electron's ABI into
 * dist/electron-native/better_sqlite3.node, which the desktop app passes to
 * better-sqlite3 as `nativeBinding` (src-main/electron/runtime-paths.ts).
 *
 * node_modules keeps its Node build: tests, the CLI and the daemon need it,
 * and rebuilding it in place for Electron (what electron-rebuild does by
 * default) would break them (docs/ARCHITECTURE.md, Build notes). So the module is copied to a
 * temporary project and rebuilt there with @electron/rebuild: a prebuilt
 * binary from GitHub when one exists for this Electron, else node-gyp with
 * Electron's headers from electronjs.org. Either way it needs the internet.
 *
 * Skipped when the output exists, was made for the same Electron, module
 * version, platform and arch, and is newer than the installed module
 * (`--force` rebuilds anyway).
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODULE = 'better-sqlite3';

/** What the output was built from, kept beside it. */
export const NativeStampSchema = z.object({
  electron: z.string(),
  module: z.string(),
  platform: z.string(),
  arch: z.string(),
});
export type NativeStamp = z.infer<typeof NativeStampSchema>;

const VersionSchema = z.object({ version: z.string() });

export interface ExistingOutput {
  /** the stamp file's contents, unparsed; null when it is missing */
  stamp: unknown;
  /** mtime of the built .node */
  builtAtMs: number;
}

/** True when the existing output can be used as it is. */
export function isUpToDate(existing: ExistingOutput | null, wanted: NativeStamp, installedAtMs: number): boolean {
  if (!existing) return false;
  const stamp = NativeStampSchema.safeParse(existing.stamp);
  if (!stamp.success) return false;
  const same =
    stamp.data.electron === wanted.electron &&
    stamp.data.module === wanted.module &&
    stamp.data.platform === wanted.platform &&
    stamp.data.arch === wanted.arch;
  return same && existing.builtAtMs >= installedAtMs;
}

/** The one paragraph printed when the build fails. */
export function failureMessage(wanted: NativeStamp, cause: unknown): string {
  const reason = (cause instanceof Error ? cause.message : String(cause)).split('\n')[0]!.trim();
  return (
    `Could not build ${MODULE} ${wanted.module} for Electron ${wanted.electron} (${wanted.platform}-${wanted.arch}). ` +
    `This step downloads a prebuilt binary from GitHub or Electron's headers from https://electronjs.org/headers and ` +
    `compiles with node-gyp, so it needs internet access (and, to compile, Python 3 and a C++ toolchain: build-essential, ` +
    `Xcode's command line tools, or Visual Studio Build Tools). The desktop app cannot open its database without it. ` +
    `Nothing in node_modules was changed: tests, the CLI and \`npm run serve\` still work. Cause: ${reason}`
  );
}

async function readVersion(path: string): Promise<string> {
  return VersionSchema.parse(JSON.parse(await readFile(path, 'utf8'))).version;
}

async function readExisting(output: string, stampPath: string): Promise<ExistingOutput | null> {
  const built = await stat(output).catch(() => null);
  if (!built) return null;
  const stamp = await readFile(stampPath, 'utf8')
    .then((text) => JSON.parse(text) as unknown)
    .catch(() => null);
  return { stamp, builtAtMs: built.mtimeMs };
}

/**
 * A module built against Node's headers instead of Electron's loads in this
 * (plain Node) process; a real Electron build refuses with NODE_MODULE_VERSION.
 * npm's `nodedir` setting is the usual culprit: it makes node-gyp ignore
 * `--target`.
 */
function assertNotNodeBuild(path: string): void {
  try {
    createRequire(import.meta.url)(path);
  } catch {
    return;
  }
  throw new Error(`${path} was built for Node ${process.version}, not Electron (is npm's nodedir set?)`);
}

async function buildInTempProject(wanted: NativeStamp, installed: string): Promise<string> {
  const { rebuild } = await import('@electron/rebuild');
  const project = await mkdtemp(join(tmpdir(), 'media-sync-electron-native-'));
  try {
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'media-sync-electron-native', private: true, dependencies: { [MODULE]: wanted.module } }),
    );
    const copy = join(project, 'node_modules', MODULE);
    // the sources without the Node build's objects
    await cp(installed, copy, { recursive: true, filter: (source) => source !== join(installed, 'build') });
    // @electron/rebuild tries a prebuilt binary first through prebuild-install, found beside the module
    const prebuildInstall = dirname(
      createRequire(join(installed, 'package.json')).resolve('prebuild-install/package.json'),
    );
    await symlink(prebuildInstall, join(project, 'node_modules', 'prebuild-install'), 'junction');
    // npm passes its `nodedir` to node-gyp as npm_config_nodedir, which would build against Node's own headers
    for (const name of Object.keys(process.env)) if (/^npm_config_nodedir$/i.test(name)) delete process.env[name];
    await rebuild({
      buildPath: project,
      projectRootPath: project,
      electronVersion: wanted.electron,
      arch: wanted.arch,
      onlyModules: [MODULE],
      force: true,
      mode: 'sequential',
    });
    const built = join(copy, 'build', 'Release', 'better_sqlite3.node');
    assertNotNodeBuild(built);
    const staged = join(project, 'better_sqlite3.node');
    await cp(built, staged);
    return staged;
  } catch (error) {
    await rm(project, { recursive: true, force: true });
    throw error;
  }
}

export async function prepareElectronNative(options: { force?: boolean } = {}): Promise<'built' | 'up to date'> {
  const installed = join(ROOT, 'node_modules', MODULE);
  const wanted: NativeStamp = {
    electron: await readVersion(join(ROOT, 'node_modules', 'electron', 'package.json')),
    module: await readVersion(join(installed, 'package.json')),
    platform: process.platform,
    arch: process.arch,
  };
  const output = join(ROOT, ...NATIVE_BINDING_PATH.split('/'));
  const stampPath = output.replace(/\.node$/, '.json');
  // the folder is made anew by each install of the module (npm keeps the tarball's old mtimes on its files)
  const installedAtMs = (await stat(installed)).mtimeMs;
  if (!options.force && isUpToDate(await readExisting(output, stampPath), wanted, installedAtMs)) return 'up to date';

  const staged = await buildInTempProject(wanted, installed);
  try {
    await mkdir(dirname(output), { recursive: true });
    // a half-written .node must never look prepared: copy beside it, then rename over it
    await cp(staged, `${output}.partial`);
    await rename(`${output}.partial`, output);
    await writeFile(stampPath, `${JSON.stringify(wanted, null, 2)}\n`);
  } finally {
    await rm(dirname(staged), { recursive: true, force: true });
  }
  return 'built';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const force = process.argv.includes('--force');
  try {
    const result = await prepareElectronNative({ force });
    console.log(`${NATIVE_BINDING_PATH}: ${result}`);
  } catch (error) {
    const electron = await readVersion(join(ROOT, 'node_modules', 'electron', 'package.json')).catch(() => '?');
    const module = await readVersion(join(ROOT, 'node_modules', MODULE, 'package.json')).catch(() => '?');
    console.error(failureMessage({ electron, module, platform: process.platform, arch: process.arch }, error));
    process.exitCode = 1;
  }
}
