import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli, startInProcessOwner } from '../../helpers/cli-process.js';
import { writeRandomFile } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { cliSandbox } from '../../helpers/cli-sandbox.js';

/**
 * `media-sync` after a `logout`: what waits for the signed-out account says
 * so, a file of it uploaded again goes to the account signed in now, and a
 * folder of it moves there. The real CLI bundle, on its own data folder.
 */
describe('media-sync after signing out', { timeout: 120_000 }, () => {
  const sandbox = cliSandbox('media-sync-cli-again-');
  const { cli } = sandbox;
  const filesOf = async (token: string) => {
    const answer = await sandbox.server.api('/files?per_page=100', { token });
    return (JSON.parse(answer.body.toString()) as { data: Array<{ filename: string }> }).data.map((f) => f.filename);
  };

  it('uploads a file that waited for the signed-out account to the one signed in, and moves its folder there', async () => {
    const annToken = sandbox.server.newAccount('ann');
    const clip = join(sandbox.files.path, 'clip.mp4');
    await writeFile(clip, 'a clip queued before the sign-out');
    const folder = join(sandbox.files.path, 'Camera');
    await mkdir(folder);
    expect((await cli(['login', '--base-url', sandbox.server.baseUrl], sandbox.server.token)).code).toBe(0);
    expect((await cli(['watch', folder, '--once', '--only-new'])).code).toBe(0);
    expect((await cli(['queue', 'pause'])).code).toBe(0);
    const paused = await cli(['upload', clip]);
    expect(paused.stderr).toContain('The upload queue is paused; the files wait in it');

    const logout = await cli(['logout']);
    expect(logout.stdout).toContain("the account's watched folders and queued files wait for it to sign in again");
    expect((await cli(['queue', 'resume'])).code).toBe(0);
    const listed = await cli(['folders']);
    expect(listed.stdout).toContain(
      `its account is signed out: its files wait; sign in to demo at ${sandbox.server.baseUrl} again (media-sync login --base-url ${sandbox.server.baseUrl}), or move it to the signed-in account (media-sync folders move ID)`,
    );

    expect((await cli(['login', '--base-url', sandbox.server.baseUrl], annToken)).code).toBe(0);
    const again = await cli(['upload', clip]);
    expect(again).toMatchObject({ code: 0, stdout: expect.stringMatching(/^clip\.mp4: done \S+ http:\/\/\S+\n$/) });
    expect(await filesOf(annToken)).toEqual(['clip.mp4']);
    expect(await filesOf(sandbox.server.token)).toEqual([]);

    const moved = await cli(['folders', 'move', '1']);
    expect(moved).toMatchObject({ code: 0, stdout: `#1 ${folder} now uploads to ann at ${sandbox.server.baseUrl}.\n` });
    expect((await cli(['folders'])).stdout).not.toContain('signed out');
  });

  it('an upload followed while its account is signed out says why it stops waiting, and keeps what was sent', async () => {
    const owner = await startInProcessOwner(sandbox.home.path);
    try {
      const { contract } = owner;
      const account = await contract.invoke('account:signIn', {
        baseUrl: sandbox.server.baseUrl,
        token: sandbox.server.token,
      });
      // 1 MB chunks at 1 MB/s: the upload is still going when the account signs out
      await contract.invoke('settings:update', { bandwidthBytesPerSecond: 1_000_000, chunkSizeBytes: 1_000_000 });
      const clip = join(sandbox.files.path, 'long.mp4');
      await writeRandomFile(clip, 12_000_000, 5);
      const upload = startCli(['upload', clip], { home: sandbox.home.path, cwd: sandbox.files.path });
      await waitFor(
        async () => {
          const [item] = (await contract.invoke('uploads:list', {})).items;
          return item?.state.kind === 'uploading' && item.state.ackedBytes >= 1_000_000 ? true : undefined;
        },
        30_000,
        'a chunk of long.mp4 confirmed',
      );
      await contract.invoke('account:signOut', { accountId: account.id });
      const ended = await upload.done;
      expect(ended.code).toBe(1);
      expect(ended.stderr).toContain(
        `Error: The account was signed out while its files uploaded; they wait in its queue, with what they sent. Sign in to it again to go on (media-sync login --base-url ${sandbox.server.baseUrl}).\n`,
      );
      // stopped in place: back in line with its confirmed chunks, none of its attempts spent
      const [item] = (await contract.invoke('uploads:list', {})).items;
      expect(item!.state).toEqual({ kind: 'queued' });
      expect(item!.ackedChunks.length).toBeGreaterThanOrEqual(1);
    } finally {
      await owner.close();
    }
  });
});
