import type { AppImageUpdater } from 'electron-updater';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import Module, { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Log } from '../../../src-main/common/file-log.js';
import { UpdateService } from '../../../src-main/electron/update-service.js';
import { DEFAULT_UPDATE_URL, type UpdateStatus } from '../../../src-shared/model/update-status.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { createFakeElectron, type FakeElectron } from '../../helpers/fake-electron/fake-electron.js';
import { startLocalHttpServer, waitFor } from '../../helpers/local-http-server.js';

/**
 * The app's update path with the real electron-updater (6.8.10), not a
 * stand-in: the AppImageUpdater a Linux AppImage gets, its generic provider,
 * download, sha512 check, cache and install, driven by `UpdateService`, on
 * the fake Electron (whose `net.request` is node:http with Electron's
 * ClientRequest semantics: fake-electron/net.ts), against a feed served on
 * 127.0.0.1.
 *
 * electron-updater asks for `electron` with CommonJS `require`, lazily (when
 * an updater is made, and per request): a `Module._load` hook answers with
 * the current test's fake. Each test gets its own temporary folder for HOME,
 * XDG_CACHE_HOME (the updater's cache), userData, APPIMAGE (the installed
 * AppImage) and `process.resourcesPath` (app-update.yml), all put back after.
 */

const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const realLoad = loader._load;
let currentElectron: FakeElectron | null = null;
beforeAll(() => {
  loader._load = function loadWithFakeElectron(this: unknown, request: string, ...rest: unknown[]) {
    if (request !== 'electron') return realLoad.call(this, request, ...rest);
    if (!currentElectron) throw new Error('require("electron") outside a test of updater.test.ts');
    return currentElectron.module;
  };
});
afterAll(() => {
  loader._load = realLoad;
});

// the class electron-updater's `autoUpdater` is on Linux when resources/ has no package-type (an AppImage);
// one per test, since an updater holds on to the Electron app it was made with
const { AppImageUpdater: AppImageUpdaterClass } = createRequire(import.meta.url)('electron-updater') as {
  AppImageUpdater: new () => AppImageUpdater;
};

/** electron-builder.yml's artifactName for an x64 AppImage */
const NEW_FILE = 'media-sync-1.1.0-linux-x86_64.AppImage';
const INSTALLED_FILE = 'media-sync-1.0.0-linux-x86_64.AppImage';
/** what electron-builder writes into resources/ from electron-builder.yml's `publish` (electron-builder-config.test.ts) */
const APP_UPDATE_YML = `provider: generic\nurl: ${DEFAULT_UPDATE_URL}\nupdaterCacheDirName: media-sync-updater\n`;
const CHECKSUM_SENTENCE =
  'The update to 1.1.0 did not match its checksum, so it was not installed. Media Sync will try again later.';
const UNREACHABLE_SENTENCE = 'Media Sync could not reach its update server. It will try again later.';

/** An "AppImage": a shell script that writes down that it was started (and how), then random bytes. */
function appImage(version: string): Buffer {
  const script = [
    '#!/bin/sh',
    `printf '%s' "$APPIMAGE_SILENT_INSTALL" > "$(dirname "$0")/started-${version}"`,
    'exit 0',
    '',
  ].join('\n');
  return Buffer.concat([Buffer.from(script), randomBytes(256 * 1024)]);
}

function sha512(bytes: Buffer): string {
  return createHash('sha512').update(bytes).digest('base64');
}

/** latest-linux.yml as electron-builder writes it (without blockMapSize: no differential download) */
function latestLinuxYml(version: string, file: string, bytes: Buffer): string {
  return [
    `version: ${version}`,
    'files:',
    `  - url: ${file}`,
    `    sha512: ${sha512(bytes)}`,
    `    size: ${bytes.length}`,
    `path: ${file}`,
    `sha512: ${sha512(bytes)}`,
    `releaseDate: '2025-06-01T10:00:00.000Z'`,
    '',
  ].join('\n');
}

interface LogLine {
  level: 'info' | 'warn' | 'error';
  message: string;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A feed folder at /desktop/ on 127.0.0.1:0 that publishes one release: its
 * latest-linux.yml describes `bytes`, and the file serves `served` (a
 * corrupted copy) or those bytes. `served` lists what was asked of it, with the method.
 */
async function feedServer(release: { version: string; file: string; bytes: Buffer; served?: Buffer }) {
  const server = await startLocalHttpServer();
  cleanups.push(() => server.close());
  const files = {
    'latest-linux.yml': Buffer.from(latestLinuxYml(release.version, release.file, release.bytes)),
    [release.file]: release.served ?? release.bytes,
  };
  const served: string[] = [];
  for (const [name, body] of Object.entries(files)) {
    server.route(`/desktop/${name}`, (req, res) => {
      served.push(`${req.method} /desktop/${name}`);
      res.writeHead(200, { 'content-type': name.endsWith('.yml') ? 'text/yaml' : 'application/octet-stream' });
      res.end(body);
    });
  }
  return { url: `${server.origin}/desktop/`, served, all: () => server.requests.map((url) => url.split('?')[0]) };
}

const ENV = ['HOME', 'XDG_CACHE_HOME', 'APPIMAGE'] as const;

/** A packaged Media Sync 1.0.0 installed as an AppImage, with UpdateService over a real AppImageUpdater. */
async function installedApp(feedUrl: string, options: { appUpdateYml?: boolean } = {}) {
  const temp = await tempDir('media-sync-updater-');
  cleanups.push(() => temp.remove());
  const root = temp.path;
  for (const dir of ['home', 'cache', 'userData', 'resources', 'installed']) await mkdir(join(root, dir));
  if (options.appUpdateYml !== false) await writeFile(join(root, 'resources/app-update.yml'), APP_UPDATE_YML);
  const installedPath = join(root, 'installed', INSTALLED_FILE);
  const installedBytes = appImage('1.0.0');
  await writeFile(installedPath, installedBytes, { mode: 0o755 });

  const saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
  const withResources = process as { resourcesPath?: string };
  const savedResources = withResources.resourcesPath;
  cleanups.push(() => {
    for (const name of ENV) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    if (savedResources === undefined) delete withResources.resourcesPath;
    else withResources.resourcesPath = savedResources;
  });
  // nothing lands in the real home: the updater's cache is $XDG_CACHE_HOME/<updaterCacheDirName>
  process.env['HOME'] = join(root, 'home');
  process.env['XDG_CACHE_HOME'] = join(root, 'cache');
  // the AppImage runtime sets APPIMAGE to the file the person started
  process.env['APPIMAGE'] = installedPath;
  withResources.resourcesPath = join(root, 'resources');

  const electron = createFakeElectron({
    paths: { userData: join(root, 'userData'), home: join(root, 'home'), temp: join(root, 'home') },
    appPath: join(root, 'resources/app.asar'),
    version: '1.0.0',
    isPackaged: true,
    platform: 'linux',
  });
  currentElectron = electron;
  cleanups.push(() => void (currentElectron = null));

  // whatever escapes electron-updater or the service: nothing should
  const escaped: unknown[] = [];
  const onEscape = (error: unknown) => void escaped.push(error);
  process.on('unhandledRejection', onEscape);
  process.on('uncaughtException', onEscape);
  cleanups.push(() => {
    process.off('unhandledRejection', onEscape);
    process.off('uncaughtException', onEscape);
  });

  const log: LogLine[] = [];
  const memoryLog: Log = {
    info: (message) => void log.push({ level: 'info', message }),
    warn: (message) => void log.push({ level: 'warn', message }),
    error: (message) => void log.push({ level: 'error', message }),
  };
  const updater = new AppImageUpdaterClass();
  /** at each prepareToQuit: was the installed AppImage still the old one? */
  const prepared: boolean[] = [];
  const service = new UpdateService({
    updater,
    log: memoryLog,
    prepareToQuit: async () => void prepared.push((await readFile(installedPath)).equals(installedBytes)),
  });
  cleanups.push(() => service.dispose());
  const changes: UpdateStatus[] = [];
  service.onDidChange((status) => changes.push(status));
  service.setFeedUrl(feedUrl);

  return {
    root,
    pendingDir: join(root, 'cache/media-sync-updater/pending'),
    installedPath,
    electron,
    updater,
    service,
    log,
    changes,
    prepared,
    escaped,
    /** the sentences UpdateService wrote for a person (not electron-updater's own "Updater: …" lines) */
    warnings: () => log.filter((line) => line.level !== 'info' && !line.message.startsWith('Updater: ')),
    settled: () =>
      waitFor(
        () => {
          const status = service.status();
          return status.state === 'ready' || status.state === 'failed' || status.state === 'idle' ? status : undefined;
        },
        10_000,
        'the update check and download to end',
      ),
  };
}

async function filesIn(dir: string): Promise<string[]> {
  return existsSync(dir) ? (await readdir(dir)).sort() : [];
}

/** A port that was just bound on 127.0.0.1 and closed: nothing answers there. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** the states in order, without the progress updates in between (they may or may not come) */
function steps(changes: UpdateStatus[]): UpdateStatus[] {
  return changes.filter((status) => !(status.state === 'downloading' && status.percent > 0));
}

describe.skipIf(process.platform !== 'linux')('updates with the real electron-updater (AppImage, generic feed)', () => {
  it('finds a newer version, downloads it in the background and offers it once it is verified', async () => {
    const update = appImage('1.1.0');
    const feed = await feedServer({ version: '1.1.0', file: NEW_FILE, bytes: update });
    const app = await installedApp(feed.url);

    await app.service.check();
    expect(await app.settled()).toEqual({ state: 'ready', version: '1.1.0' });

    expect(steps(app.changes)).toEqual([
      { state: 'checking' },
      { state: 'downloading', version: '1.1.0', percent: 0 },
      { state: 'ready', version: '1.1.0' },
    ]);
    for (const status of app.changes) if (status.state === 'downloading') expect(status.version).toBe('1.1.0');
    // the verified file waits in the updater's cache, ready to replace the AppImage
    expect(await filesIn(app.pendingDir)).toEqual([NEW_FILE, 'update-info.json']);
    expect((await readFile(join(app.pendingDir, NEW_FILE))).equals(update)).toBe(true);
    expect((await stat(join(app.pendingDir, NEW_FILE))).mode & 0o777).toBe(0o755);
    expect(feed.served).toEqual(['GET /desktop/latest-linux.yml', `GET /desktop/${NEW_FILE}`]);
    expect(feed.all()).toEqual(['/desktop/latest-linux.yml', `/desktop/${NEW_FILE}`]);
    // nothing was installed or restarted by itself
    expect((await readFile(app.installedPath)).equals(update)).toBe(false);
    expect(app.electron.finished).toBe(false);
    expect(app.warnings()).toEqual([]);
    expect(app.escaped).toEqual([]);
  });

  it('says it is up to date when the feed has the version that is running, and downloads nothing', async () => {
    const same = appImage('1.0.0');
    const feed = await feedServer({ version: '1.0.0', file: INSTALLED_FILE, bytes: same });
    const app = await installedApp(feed.url);

    await app.service.check();
    const status = await app.settled();
    expect(status).toEqual({ state: 'idle', checkedAt: expect.any(String) });
    expect(Number.isNaN(Date.parse((status as { checkedAt: string }).checkedAt))).toBe(false);
    expect(app.changes).toEqual([{ state: 'checking' }, status]);
    expect(feed.all()).toEqual(['/desktop/latest-linux.yml']);
    expect(await filesIn(app.pendingDir)).toEqual([]);
    expect(app.warnings()).toEqual([]);
    expect(app.escaped).toEqual([]);
  });

  it('refuses a download that does not match its sha512, keeps nothing to install and says why', async () => {
    const published = appImage('1.1.0');
    // the same size, other bytes: a corrupted or tampered file
    const served = Buffer.from(published);
    served.writeUInt8(served.readUInt8(served.length - 1) ^ 0xff, served.length - 1);
    const feed = await feedServer({ version: '1.1.0', file: NEW_FILE, bytes: published, served });
    const app = await installedApp(feed.url);

    await app.service.check();
    expect(await app.settled()).toEqual({ state: 'failed', message: CHECKSUM_SENTENCE, checkedAt: expect.any(String) });
    expect(steps(app.changes).map((status) => status.state)).toEqual(['checking', 'downloading', 'failed']);
    expect(feed.served).toEqual(['GET /desktop/latest-linux.yml', `GET /desktop/${NEW_FILE}`]);
    // no file to install at the next quit, no update-info.json that would vouch for one
    expect(await filesIn(app.pendingDir)).toEqual([]);
    expect(app.warnings()).toEqual([{ level: 'warn', message: expect.stringMatching(`^${CHECKSUM_SENTENCE} \\(`) }]);
    expect(app.warnings()[0]!.message).toMatch(/sha512 checksum mismatch/);
    expect((await readFile(app.installedPath)).equals(served)).toBe(false);
    expect(app.escaped).toEqual([]);
  });

  it('says the update server cannot be reached, once per check, with no dialog and nothing thrown', async () => {
    const app = await installedApp(`http://127.0.0.1:${await closedPort()}/desktop/`);

    await expect(app.service.check()).resolves.toEqual({
      state: 'failed',
      message: UNREACHABLE_SENTENCE,
      checkedAt: expect.any(String),
    });
    expect(app.warnings()).toEqual([
      { level: 'warn', message: `${UNREACHABLE_SENTENCE} (net::ERR_CONNECTION_REFUSED)` },
    ]);

    // the next check (6 hours later in the app) goes the same way, and nothing goes on by itself in between
    await expect(app.service.check()).resolves.toMatchObject({ state: 'failed', message: UNREACHABLE_SENTENCE });
    expect(app.changes.map((status) => status.state)).toEqual(['checking', 'failed', 'checking', 'failed']);
    expect(app.warnings()).toHaveLength(2);
    const logged = app.log.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(app.log).toHaveLength(logged);
    expect(app.changes).toHaveLength(4);

    expect(app.electron.record.messageBoxes).toEqual([]);
    expect(app.electron.record.errorBoxes).toEqual([]);
    expect(app.escaped).toEqual([]);
  });

  it('installs on "Restart to update": stops the app first, replaces the AppImage, starts the new one and quits', async () => {
    const update = appImage('1.1.0');
    const feed = await feedServer({ version: '1.1.0', file: NEW_FILE, bytes: update });
    const app = await installedApp(feed.url);
    await app.service.check();
    expect(await app.settled()).toEqual({ state: 'ready', version: '1.1.0' });
    const renamedTo: string[] = [];
    app.updater.on('appimage-filename-updated', (path: string) => renamedTo.push(path));
    let beforeQuitForUpdate = 0;
    app.electron.module.autoUpdater.on('before-quit-for-update', () => beforeQuitForUpdate++);

    await app.service.install();

    // the core was stopped while the old AppImage was still in place
    expect(app.prepared).toEqual([true]);
    // the versioned file name follows the version: the old file goes, the new one sits beside it
    const newPath = join(app.root, 'installed', NEW_FILE);
    expect(existsSync(app.installedPath)).toBe(false);
    expect((await readFile(newPath)).equals(update)).toBe(true);
    expect(renamedTo).toEqual([newPath]);
    // the new version was started, silently (the AppImage runtime's APPIMAGE_SILENT_INSTALL); the shell
    // creates its file before it writes to it, so an empty file is not an answer yet
    expect(
      await waitFor(
        async () => (await readFile(join(app.root, 'installed/started-1.1.0'), 'utf8').catch(() => '')) || undefined,
        10_000,
        'the new AppImage to start and write APPIMAGE_SILENT_INSTALL',
      ),
    ).toBe('true');
    // and this one quits in Electron's order
    await waitFor(() => app.electron.finished || undefined, 10_000, 'the app to quit');
    expect(beforeQuitForUpdate).toBe(1);
    expect(app.electron.timeline.slice(app.electron.timeline.indexOf('before-quit'))).toEqual([
      'before-quit',
      'will-quit',
      'quit',
      'exit 0',
    ]);
    expect(app.electron.record.exitCode).toBe(0);
    expect(app.log.map((line) => line.message)).toContain('Installing Media Sync 1.1.0: stopping first.');
    expect(app.escaped).toEqual([]);
  });

  it('cannot download without resources/app-update.yml, even with its feed URL set (why electron-builder.yml has publish)', async () => {
    const update = appImage('1.1.0');
    const feed = await feedServer({ version: '1.1.0', file: NEW_FILE, bytes: update });
    const app = await installedApp(feed.url, { appUpdateYml: false });

    await app.service.check();
    const status = await app.settled();
    expect(status).toMatchObject({ state: 'failed' });
    expect((status as { message: string }).message).toMatch(
      /^The update check failed: ENOENT.*resources\/app-update\.yml/,
    );
    // it found the update, then could not name its cache folder
    expect(feed.served).toEqual(['GET /desktop/latest-linux.yml']);
    expect(app.escaped).toEqual([]);
  });
});
