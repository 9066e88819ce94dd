import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileWhy } from '../../../src-shared/ipc/ipc-contract.js';
import { startInProcessOwner } from '../../helpers/cli-process.js';
import { cliSandbox } from '../../helpers/cli-sandbox.js';
import { waitFor } from '../../helpers/local-http-server.js';

/**
 * `media-sync why PATH [--json]` beside a running owner: the folder, the
 * verdict, what happens next and the commands that act on it, in the
 * catalog's words; --json the answer of folders:why with those sentences.
 */
describe('media-sync why', { timeout: 120_000 }, () => {
  const sandbox = cliSandbox('media-sync-cli-why-');
  const { cli } = sandbox;

  it('explains a file left alone by the folder’s glob, and an uploaded one with its link', async () => {
    const owner = await startInProcessOwner(sandbox.home.path);
    try {
      expect((await cli(['login', '--base-url', sandbox.server.baseUrl], sandbox.server.token)).code).toBe(0);
      const [account] = await owner.contract.invoke('account:list', {});
      const camera = join(sandbox.files.path, 'Camera');
      await mkdir(camera);
      const folder = await owner.contract.invoke('folders:add', {
        accountId: account!.id,
        path: camera,
        options: { ignoreGlobs: ['*.draft'] },
      });
      await writeFile(join(camera, 'notes.draft'), 'a draft');
      await writeFile(join(camera, 'clip.mp4'), 'the bytes of a clip');

      // a relative path is read from the current folder (the sandbox's files)
      const draft = await cli(['why', join('Camera', 'notes.draft')]);
      expect(draft).toMatchObject({ code: 0, stderr: '' });
      expect(draft.stdout.split('\n').map((row) => row.replace(/ +/g, ' '))).toEqual([
        join(camera, 'notes.draft'),
        `Folder: ${camera}, watched live`,
        'Status: Left alone by the folder’s rule “*.draft”.',
        'What happens next: The folder does not upload it while the rule holds.',
        `You can: Upload anyway: media-sync upload --force "${join(camera, 'notes.draft')}"`,
        ` Remove the rule “*.draft”: in the app, Folders → ${camera} → Options`,
        '',
      ]);

      const clip = join(camera, 'clip.mp4');
      const uploaded = await waitFor(
        async () => {
          const run = await cli(['why', clip, '--json']);
          const answer = JSON.parse(run.stdout) as FileWhy & { text: Record<string, string> };
          return answer.verdict.kind === 'uploaded' ? answer : undefined;
        },
        30_000,
        'the clip uploaded',
      );
      const [remote] = (await owner.contract.invoke('files:list', { accountId: account!.id })).data;
      expect(uploaded).toMatchObject({
        path: clip,
        folder: { id: folder.id, path: camera },
        verdict: { kind: 'uploaded', fileId: remote!.id, link: remote!.urls.watch, changedSince: false },
        actions: [],
        text: {
          folder: `${camera}, watched live`,
          verdict: 'Uploaded.',
          next: 'Nothing: the service has this version.',
        },
      });
      const human = await cli(['why', clip]);
      expect(human.stdout).toMatch(new RegExp(`On the service: +clip\\.mp4 \\(${remote!.id}\\)\\n`));
      expect(human.stdout).toMatch(new RegExp(`\\nLink: +${remote!.urls.watch}\\n`));
    } finally {
      await owner.close();
    }

    // nobody runs the data folder: answered by a core of its own, which says the folder is not watched now
    const alone = await cli(['why', join(sandbox.files.path, 'Camera', 'notes.draft')]);
    expect(alone).toMatchObject({
      code: 0,
      stderr: 'No Media Sync runs on this data folder: its folders are not being watched now.\n',
    });
    expect(alone.stdout).toMatch(/\nStatus: +Left alone by the folder’s rule “\*\.draft”\.\n/);
    expect(await cli(['why'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('media-sync why takes one path.'),
    });
  });
});
