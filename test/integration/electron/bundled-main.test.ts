import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as buildRenderer } from 'vite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDesktop } from '../../../scripts/build-desktop.js';
import { sha256File, tempDir, writeRandomFile } from '../../helpers/engine-fixture.js';
import type { DesktopSnapshot } from '../../helpers/fake-electron/control-protocol.js';
import { DesktopProcess } from '../../helpers/fake-electron/desktop-process.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { afterResume, committedChunks, readSavedUploads } from '../../helpers/saved-queue.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const ROOT = resolve(import.meta.dirname, '../../..');

/**
 * The desktop main process as shipped: `dist/electron/main.js` bundled by
 * `npm run build:desktop`, beside the built UI, started by Node with
 * `electron` mapped to the fake (test/helpers/fake-electron/register.mjs).
 * The fake keeps the process alive as Electron's loop would, so the process
 * ends only if the app really quits.
 */
describe('the bundled desktop main process on a fake Electron', () => {
  let app: Awaited<ReturnType<typeof tempDir>>;
  let mainJs: string;
  let home: Awaited<ReturnType<typeof tempDir>>;
  let server: TestServer;
  const processes: DesktopProcess[] = [];

  beforeAll(async () => {
    app = await tempDir('media-sync-bundled-');
    await buildDesktop(join(app.path, 'dist', 'electron'));
    await buildRenderer({
      configFile: fileURLToPath(new URL('../../../vite.config.ts', import.meta.url)),
      logLevel: 'warn',
      build: { outDir: join(app.path, 'dist', 'renderer'), emptyOutDir: true },
    });
    await cp(join(ROOT, 'assets'), join(app.path, 'assets'), { recursive: true });
    await cp(join(ROOT, 'package.json'), join(app.path, 'package.json'));
    // main.js keeps its dependencies external, as in app.asar beside node_modules
    await symlink(join(ROOT, 'node_modules'), join(app.path, 'node_modules'), 'dir');
    mainJs = join(app.path, 'dist', 'electron', 'main.js');
  }, 120_000);

  afterAll(async () => {
    await app.remove();
  });

  afterEach(async () => {
    for (const desktop of processes.splice(0)) desktop.kill();
    await server?.close();
    await home?.remove();
  });

  async function start(args: string[] = [], env: Record<string, string> = {}): Promise<DesktopProcess> {
    const desktop = DesktopProcess.start({
      mainJs,
      home: home.path,
      args,
      env: { XDG_CONFIG_HOME: join(home.path, 'config'), ...env },
    });
    processes.push(desktop);
    return desktop;
  }

  it('starts with the built UI in its window and the tray, answers the page, and ends on app.quit()', async () => {
    home = await tempDir('media-sync-bundled-home-');
    server = await startTestServer();
    const desktop = await start();
    const started = await desktop.until((state) => Boolean(state.windows[0]?.visible && state.tray));
    expect(started.windows[0]!.loadedFile).toBe(join(app.path, 'dist', 'renderer', 'index.html'));
    expect(started.windows[0]!.missingResources).toEqual([]);
    expect(started.windows[0]!.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true });
    expect(started.tray!.tooltip).toBe('Media Sync: up to date');
    expect(started.tray!.image).toBe(join(app.path, 'assets', 'tray', 'tray-idle.png'));
    expect(started.applicationMenu.map((item) => item.role ?? item.label)).toContain('editMenu');
    // not packaged: the OS is told to start Electron with the app, as the Electron docs say
    expect(started.protocolClients).toEqual([
      { protocol: 'media-sync', path: process.execPath, args: [join(app.path, 'dist', 'electron', 'main.js')] },
    ]);

    // the page's calls reach the core: sign in to the reference server
    const signedIn = await desktop.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    expect(signedIn).toMatchObject({ ok: true, value: { username: 'demo' } });

    // launch at login, the Linux way
    const entry = join(home.path, 'config', 'autostart', 'media-sync.desktop');
    expect(await desktop.invoke('settings:update', { launchAtLogin: true })).toMatchObject({ ok: true });
    const written = await readFile(entry, 'utf8');
    expect(written).toContain(`Exec=${process.execPath} ${mainJs} --hidden\n`);
    expect(await desktop.invoke('settings:update', { launchAtLogin: false })).toMatchObject({ ok: true });
    expect(existsSync(entry)).toBe(false);

    // the native folder picker
    const folder = join(home.path, 'Videos');
    await mkdir(folder);
    await desktop.request({ type: 'answer-open-dialog', filePaths: [folder] });
    expect(await desktop.invoke('app:pickFolder')).toEqual({ ok: true, value: { path: folder } });

    // closing the window hides it; quitting ends the process, cleanly
    await desktop.request({ type: 'close-window' });
    await desktop.until((state) => state.windows[0]!.visible === false);
    await desktop.request({ type: 'quit' });
    expect(await desktop.exited).toBe(0);
    expect(desktop.output()).not.toMatch(/error|exception|warning/i);
    const log = await readFile(join(home.path, 'logs', 'main.log'), 'utf8');
    expect(log).toContain('Stopped: the queue is saved and the database closed.');
    expect(log).not.toContain(server.token);
    // the app logs what would otherwise be Electron's "A JavaScript error occurred" dialog
    expect(log).not.toMatch(/Uncaught|Unhandled/);
  });

  it('SIGTERM mid-upload ends the app with exit 0 within 5 s, the acknowledged chunks saved; the next start resumes', async () => {
    home = await tempDir('media-sync-bundled-home-');
    server = await startTestServer();
    const userData = join(home.path, 'userData');
    const path = join(home.path, 'lighthouse.mp4');
    await writeRandomFile(path, 40_000_000, 41);
    const first = await start(['--hidden']);
    await first.until((state) => Boolean(state.tray));
    const signedIn = (await first.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token })) as {
      ok: true;
      value: { id: string };
    };
    // slow and small chunks, so the signal lands mid-file
    expect(
      await first.invoke('settings:update', { bandwidthBytesPerSecond: 8_000_000, chunkSizeBytes: 5_000_000 }),
    ).toMatchObject({ ok: true });
    expect(await first.invoke('uploads:addPaths', { accountId: signedIn.value.id, paths: [path] })).toMatchObject({
      ok: true,
    });
    const before = await committedChunks(userData, 2);

    const started = performance.now();
    first.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(performance.now() - started).toBeLessThan(5_000);
    const log = await readFile(join(home.path, 'logs', 'main.log'), 'utf8');
    expect(log).toContain('Stopped: the queue is saved and the database closed.');
    expect(log).not.toContain(server.token);
    const [saved] = readSavedUploads(userData);
    expect(saved!.state.kind).toBe('queued');
    expect(saved!.acked_chunks).toEqual(expect.arrayContaining(before));
    const sentBefore = server.server.uploadLog.entries().length;

    const second = await start(['--hidden']);
    await waitFor(() => (readSavedUploads(userData)[0]?.state.kind === 'done' ? true : undefined), 30_000, 'done');
    await second.request({ type: 'quit' });
    expect(await second.exited).toBe(0);
    expect(await afterResume(server, saved!, sentBefore)).toEqual({
      dzuuids: [saved!.dzuuid],
      resentAcked: [],
      storedSha256: [await sha256File(path)],
    });
  });

  it('a second start with the demo account signed in serves it: the demo server, a chunk of its own, comes back', async () => {
    home = await tempDir('media-sync-bundled-home-');
    const first = await start(['--hidden']);
    await first.until((state) => Boolean(state.tray));
    const demo = (await first.invoke('account:startDemo', {})) as { ok: true; value: { id: string; baseUrl: string } };
    expect(demo).toMatchObject({ ok: true, value: { username: 'demo' } });
    first.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = await start(['--hidden']);
    await second.until((state) => Boolean(state.tray));
    expect(await second.invoke('account:summary', { accountId: demo.value.id })).toMatchObject({
      ok: true,
      value: { username: 'demo' },
    });
    await second.request({ type: 'quit' });
    expect(await second.exited).toBe(0);
    const log = await readFile(join(home.path, 'logs', 'main.log'), 'utf8');
    expect(log).toContain(`The local demo server is back at ${demo.value.baseUrl} for the demo account.`);
    expect(log).not.toMatch(/Uncaught|Unhandled|could not start/);
  });

  it('hands a second instance over to the first, which shows its window; SIGTERM quits in order', async () => {
    home = await tempDir('media-sync-bundled-home-');
    const first = await start(['--hidden']);
    const hidden = await first.until((state) => Boolean(state.tray && state.windows[0]?.loadedFile));
    expect(hidden.windows[0]!.visible).toBe(false);

    const second = await start(['media-sync://files?search=holiday']);
    expect(await second.exited).toBe(0);
    const shown = await first.until((state) => state.windows[0]!.visible);
    expect(shown.timeline).toContain('second-instance');
    const intents = await waitFor(async () => {
      const taken = (await first.invoke('app:takeIntents')) as { ok: true; value: Array<{ kind: string }> };
      return taken.value.length > 0 ? taken.value : undefined;
    });
    expect(intents).toMatchObject([{ kind: 'files', search: 'holiday' }]);

    first.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const log = await readFile(join(home.path, 'logs', 'main.log'), 'utf8');
    expect(log).toContain('Stopped: the queue is saved and the database closed.');
    expect(log).not.toMatch(/Uncaught|Unhandled/);
  });

  it('shows an upload on the taskbar: paused while paused, then from 0 to 1, then removed', async () => {
    home = await tempDir('media-sync-bundled-home-');
    server = await startTestServer();
    const path = join(home.path, 'harbour.mp4');
    await writeRandomFile(path, 3_000_000, 24);
    const desktop = await start();
    await desktop.until((state) => Boolean(state.windows[0]?.visible && state.tray));
    const signedIn = (await desktop.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token })) as {
      ok: true;
      value: { id: string };
    };
    await desktop.invoke('settings:update', { bandwidthBytesPerSecond: 1_000_000, chunkSizeBytes: 1_000_000 });
    await desktop.invoke('uploads:pauseAll', { until: null });
    await desktop.invoke('uploads:addPaths', { accountId: signedIn.value.id, paths: [path] });
    const bar = (state: DesktopSnapshot) => state.windows[0]!.progressBar;
    await desktop.until((state) => bar(state).at(-1)?.mode === 'paused');

    await desktop.invoke('uploads:resumeAll');
    const after = await desktop.until((state) => bar(state).at(-1)?.progress === -1, 30_000);
    const shown = bar(after);
    expect(shown[0]).toEqual({ progress: 0, mode: 'paused' });
    expect(shown.at(-2)).toEqual({ progress: 1, mode: 'normal' });
    expect(shown.at(-1)).toEqual({ progress: -1 });
    // it moved on the way once resumed, and never back
    const fractions = shown.slice(0, -1).map(({ progress }) => progress);
    expect(shown.filter(({ mode }) => mode === 'normal').length).toBeGreaterThan(2);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(after.tray!.tooltip).toBe('Media Sync: up to date');
  });
});
