import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FolderStatus } from '../../../src-shared/model/folder-status.js';
import { startInProcessOwner } from '../../helpers/cli-process.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { cliSandbox } from '../../helpers/cli-sandbox.js';

/**
 * `media-sync folders` beside a running owner (as beside the app or `serve`):
 * the watched folders with their state and counts, --json, pause, resume and
 * rescan by id; and on its own, what it says of folders nobody watches now.
 */
describe('media-sync folders', { timeout: 120_000 }, () => {
  const sandbox = cliSandbox('media-sync-cli-folders-');
  const { cli } = sandbox;

  it('lists the folders with their state and counts beside the owner, and pauses, resumes and rescans one', async () => {
    const owner = await startInProcessOwner(sandbox.home.path);
    try {
      expect((await cli(['login', '--base-url', sandbox.server.baseUrl], sandbox.server.token)).code).toBe(0);
      expect(await cli(['folders'])).toMatchObject({
        code: 0,
        stdout: 'No folder is watched. Add one with: media-sync watch DIR\n',
      });
      const [account] = await owner.contract.invoke('account:list', {});
      const photos = join(sandbox.files.path, 'Photos');
      const camera = join(sandbox.files.path, 'Camera');
      await mkdir(photos);
      await mkdir(camera);
      const added = await owner.contract.invoke('folders:add', { accountId: account!.id, path: photos });
      await owner.contract.invoke('folders:add', { accountId: account!.id, path: camera });
      await Promise.all(['a.jpg', 'b.jpg'].map((name) => writeFile(join(photos, name), `photo ${name}`)));
      await waitFor(
        async () => {
          const [status] = await owner.contract.invoke('folders:status', {});
          return status?.counts.uploaded === 2 && status.state.kind === 'watching' ? true : undefined;
        },
        30_000,
        'two files uploaded from Photos',
      );

      const listed = await cli(['folders']);
      expect(listed.code).toBe(0);
      expect(listed.stderr).toBe('');
      const lines = listed.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(
        new RegExp(`^#${added.id} +${photos} +up to date since .+ {2}2 uploaded \\(2 today\\), 0 failed, 0 skipped$`),
      );
      expect(lines[1]).toMatch(/Camera +up to date since .+ {2}0 uploaded \(0 today\), 0 failed, 0 skipped$/);

      const json = await cli(['folders', '--json']);
      const statuses = JSON.parse(json.stdout) as FolderStatus[];
      expect(statuses.map((status) => [status.path, status.counts.uploaded])).toEqual([
        [photos, 2],
        [camera, 0],
      ]);

      expect(await cli(['folders', 'pause', String(added.id)])).toMatchObject({
        code: 0,
        stdout: `#${added.id} ${photos}: paused\n`,
      });
      expect((await owner.contract.invoke('folders:status', {}))[0]!.paused).toBe(true);
      expect((await cli(['folders', 'resume', String(added.id)])).code).toBe(0);
      expect((await owner.contract.invoke('folders:status', {}))[0]!.paused).toBe(false);
      const rescan = await cli(['folders', 'rescan', String(added.id), '--json']);
      expect(JSON.parse(rescan.stdout)).toMatchObject({ id: added.id, paused: false });

      expect(await cli(['folders', 'pause', '42'])).toMatchObject({
        code: 1,
        stderr: 'Error: There is no watched folder #42.\n',
      });
      expect(await cli(['folders', 'pause'])).toMatchObject({ code: 2 });
    } finally {
      await owner.close();
    }

    // nobody runs the data folder now: the folders are listed, and said not to be watched
    const alone = await cli(['folders']);
    expect(alone.code).toBe(0);
    expect(alone.stderr).toBe('No Media Sync runs on this data folder: its folders are not being watched now.\n');
    expect(alone.stdout).toContain('2 uploaded (2 today), 0 failed, 0 skipped');
  });

  it('watch sets the settle window, polling and Notify me (--settle, --poll, --notify); folders says the folder is checked by polling', async () => {
    const owner = await startInProcessOwner(sandbox.home.path);
    try {
      expect((await cli(['login', '--base-url', sandbox.server.baseUrl], sandbox.server.token)).code).toBe(0);
      const recordings = join(sandbox.files.path, 'Recordings');
      await mkdir(recordings);
      const watched = await cli([
        'watch',
        recordings,
        '--once',
        '--settle',
        'recordings',
        '--poll',
        '--notify',
        'problems',
      ]);
      expect(watched.code).toBe(0);
      const [folder] = await owner.contract.invoke('folders:list', {});
      expect(folder!.options).toMatchObject({ settleSeconds: 120, checkByPolling: true, notify: 'problems' });
      const listed = await cli(['folders']);
      expect(listed.stdout).toMatch(/Recordings +up to date since .+; checked by polling every minute {2}0 uploaded/);
      expect((JSON.parse((await cli(['folders', '--json'])).stdout) as FolderStatus[])[0]!.polling).toEqual({
        everySeconds: 60,
        why: 'chosen',
        fileSystem: null,
      });
      for (const wrong of ['11m', '0s', 'soon']) {
        expect(await cli(['watch', recordings, '--once', '--settle', wrong])).toMatchObject({
          code: 2,
          stderr: expect.stringContaining('--settle must be from 1s to 10m (e.g. 30s, 2m), or recordings.'),
        });
      }
      expect(await cli(['watch', recordings, '--once', '--notify', 'sometimes'])).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('--notify must be every, batch, problems or never.'),
      });
    } finally {
      await owner.close();
    }
  });
});
