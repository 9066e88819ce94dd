import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UpdateStatus } from '../../../src-shared/model/update-status.js';
import {
  nextUpdateStatus,
  UpdateService,
  updateMenuItem,
  updateProblem,
} from '../../../src-main/electron/update-service.js';
import { FakeUpdater } from '../../helpers/fake-updater.js';

function setup(options: { updater?: FakeUpdater | null } = {}) {
  const updater = options.updater === undefined ? new FakeUpdater() : options.updater;
  const lines: string[] = [];
  const steps: string[] = [];
  const service = new UpdateService({
    updater: updater?.asPort() ?? null,
    log: {
      info: (message) => lines.push(`info ${message}`),
      warn: (message) => lines.push(`warn ${message}`),
      error: (message) => lines.push(`error ${message}`),
    },
    prepareToQuit: async () => void steps.push('prepared to quit'),
    firstCheckMs: 1_000,
    checkEveryMs: 60_000,
  });
  const seen: UpdateStatus[] = [];
  service.onDidChange((status) => seen.push(status));
  if (updater) updater.onInstall = () => steps.push('installer started');
  return { service, updater: updater!, lines, steps, seen };
}

describe('nextUpdateStatus', () => {
  it('keeps a downloaded update ready whatever a later check says, until it is installed', () => {
    const ready: UpdateStatus = { state: 'ready', version: '1.1.0' };
    const at = '2026-11-22T10:00:00.000Z';
    expect(nextUpdateStatus(ready, { type: 'check-started' })).toBe(ready);
    expect(nextUpdateStatus(ready, { type: 'failed', message: 'offline', at })).toBe(ready);
    expect(nextUpdateStatus(ready, { type: 'up-to-date', at })).toBe(ready);
    expect(nextUpdateStatus(ready, { type: 'found', version: '1.2.0' })).toBe(ready);
  });

  it('follows a download from found to ready, with its percentage kept within 0–100', () => {
    let status: UpdateStatus = { state: 'checking' };
    status = nextUpdateStatus(status, { type: 'found', version: '1.1.0' });
    expect(status).toEqual({ state: 'downloading', version: '1.1.0', percent: 0 });
    status = nextUpdateStatus(status, { type: 'progress', percent: 140 });
    expect(status).toEqual({ state: 'downloading', version: '1.1.0', percent: 100 });
    expect(nextUpdateStatus(status, { type: 'downloaded', version: '1.1.0' })).toEqual({
      state: 'ready',
      version: '1.1.0',
    });
    // progress that comes after the check failed changes nothing
    const failed: UpdateStatus = { state: 'failed', message: 'x', checkedAt: '2026-11-22T10:00:00.000Z' };
    expect(nextUpdateStatus(failed, { type: 'progress', percent: 10 })).toBe(failed);
  });

  it('keeps a failure told twice as one, and a new check fails anew', () => {
    const failed: UpdateStatus = { state: 'failed', message: 'offline', checkedAt: '2026-11-22T10:00:00.000Z' };
    const later = '2026-11-22T10:00:00.002Z';
    expect(nextUpdateStatus(failed, { type: 'failed', message: 'offline', at: later })).toBe(failed);
    expect(nextUpdateStatus(failed, { type: 'failed', message: 'refused', at: later })).toEqual({
      state: 'failed',
      message: 'refused',
      checkedAt: later,
    });
    const checking = nextUpdateStatus(failed, { type: 'check-started' });
    expect(nextUpdateStatus(checking, { type: 'failed', message: 'offline', at: later })).toEqual({
      state: 'failed',
      message: 'offline',
      checkedAt: later,
    });
  });
});

describe('updateProblem', () => {
  it('says what happened in a sentence, without the updater’s stack traces and HTTP dumps', () => {
    const mismatch = Object.assign(new Error('sha512 checksum mismatch, expected abc, got def'), {
      code: 'ERR_CHECKSUM_MISMATCH',
    });
    expect(updateProblem(mismatch, '1.1.0')).toBe(
      'The update to 1.1.0 did not match its checksum, so it was not installed. Media Sync will try again later.',
    );
    expect(updateProblem(new Error('net::ERR_INTERNET_DISCONNECTED'), null)).toBe(
      'Media Sync could not reach its update server. It will try again later.',
    );
    expect(updateProblem(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }), null)).toBe(
      'Media Sync could not reach its update server. It will try again later.',
    );
    const http = new Error(
      `Cannot find latest-linux.yml in the latest release artifacts: HttpError: 404\n${'x'.repeat(500)}`,
    );
    expect(updateProblem(http, null)).toBe(
      'The update check failed: Cannot find latest-linux.yml in the latest release artifacts: HttpError: 404',
    );
  });
});

describe('UpdateService', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('in a development build says updates come with installed builds, and never checks', async () => {
    vi.useFakeTimers();
    const { service } = setup({ updater: null });
    service.start();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(await service.check()).toEqual({
      state: 'unavailable',
      reason: 'A development build does not update itself; installed builds check every 6 hours.',
      text: { key: 'core.updates.development' },
    });
    expect(updateMenuItem(service.status())).toBeNull();
  });

  it('checks after start-up and then at its rhythm, downloading by itself, and installs a found update only at the next quit', async () => {
    vi.useFakeTimers();
    const { service, updater } = setup();
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    service.setFeedUrl('https://updates.example.org/media-sync/');
    expect(updater.feedUrl).toBe('https://updates.example.org/media-sync/');
    service.start();
    await vi.advanceTimersByTimeAsync(999);
    expect(updater.checks).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(updater.checks).toBe(1);
    expect(service.status()).toMatchObject({ state: 'idle', checkedAt: expect.any(String) });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(updater.checks).toBe(2);
    service.dispose();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(updater.checks).toBe(2);
  });

  it('goes checking → downloading → ready, offers Restart to update, and stops the app before the installer runs', async () => {
    const { service, updater, seen, steps, lines } = setup();
    updater.next = { kind: 'update', version: '1.1.0' };
    await service.check();
    await vi.waitFor(() => expect(service.status()).toEqual({ state: 'ready', version: '1.1.0' }));
    expect(seen.map((status) => status.state)).toEqual(['checking', 'downloading', 'downloading', 'ready']);
    expect(updateMenuItem(service.status())).toEqual({ label: 'Restart to update to 1.1.0', enabled: true });
    // a ready update is not checked for again, nor replaced
    expect(await service.check()).toEqual({ state: 'ready', version: '1.1.0' });
    expect(updater.checks).toBe(1);

    await service.install();
    await vi.waitFor(() => expect(steps).toEqual(['prepared to quit', 'installer started']));
    expect(updater.installs).toEqual([[true, true]]);
    expect(lines).toContain('info Installing Media Sync 1.1.0: stopping first.');
  });

  it('refuses to install what was not downloaded, and changes nothing', async () => {
    const { service, updater, steps } = setup();
    await expect(service.install()).rejects.toMatchObject({ code: 'NO_UPDATE' });
    expect(steps).toEqual([]);
    expect(updater.installs).toEqual([]);
  });

  it('runs one check at a time however often it is asked', async () => {
    const { service, updater } = setup();
    const [a, b] = await Promise.all([service.check(), service.check()]);
    expect(updater.checks).toBe(1);
    expect(a).toEqual(b);
  });

  it('a failed check is one line in the log and a status, and the next check starts afresh', async () => {
    const { service, updater, lines } = setup();
    updater.next = { kind: 'error', error: Object.assign(new Error('getaddrinfo ENOTFOUND x'), { code: 'ENOTFOUND' }) };
    expect(await service.check()).toMatchObject({
      state: 'failed',
      message: 'Media Sync could not reach its update server. It will try again later.',
    });
    expect(lines.filter((line) => line.startsWith('warn Media Sync could not reach'))).toHaveLength(1);
    updater.next = { kind: 'none' };
    expect(await service.check()).toMatchObject({ state: 'idle' });
  });

  it('says so when this installation does not update itself (the updater answers null)', async () => {
    const { service, updater } = setup();
    updater.checkForUpdates = async () => null;
    expect(await service.check()).toEqual({
      state: 'unavailable',
      reason:
        'This installation does not update itself: it is updated with the package manager or installer it came from.',
      text: { key: 'core.updates.inactive' },
    });
  });
});
