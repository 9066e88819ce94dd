import { execFile } from 'node:child_process';
import { mkdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FolderStatus } from '../../../src-shared/model/folder-status.js';
import { runCli, startInProcessOwner, stopRunningClis } from '../../helpers/cli-process.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { CAN_MOUNT, MOUNT_SKIP_NOTE, mountTmpfs, unmount } from '../../helpers/tmpfs.js';

/** how often the core looks at each folder's path here (30 s in the app) */
const FOLDER_CHECK_MS = 300;
const CARD_FILES = ['DSC0001.JPG', 'DSC0002.JPG', 'MVI0003.MP4'];

/**
 * A watched camera card (docs/uploads.md, An unmounted drive): a tmpfs
 * mounted on a folder, watched, its files uploaded; unmounted (the folder
 * left empty on the disk above) it is "not connected", through the contract
 * and `media-sync folders`, also after a restart; a fresh tmpfs mounted there
 * with the same files copied in (new inodes, the same names,
 * sizes and times) uploads none of them again, and a new file on it goes.
 */
describe.skipIf(!CAN_MOUNT)(
  `a watched folder on a drive that is unmounted${MOUNT_SKIP_NOTE}`,
  { timeout: 120_000 },
  () => {
    let server: TestServer;
    let home: Awaited<ReturnType<typeof tempDir>>;
    let media: Awaited<ReturnType<typeof tempDir>>;
    let card: string;
    let mounted = false;
    let owner: Awaited<ReturnType<typeof startInProcessOwner>> | undefined;

    beforeEach(async () => {
      server = await startTestServer({ conversions: false, rateLimit: 100_000 });
      home = await tempDir('media-sync-unmounted-home-');
      media = await tempDir('media-sync-unmounted-media-');
      card = join(media.path, 'CARD');
      await mkdir(card);
      await mkdir(join(media.path, 'camera'));
      // what the camera wrote, with its own times: copied onto each mount as a card reader would show it
      for (const [index, name] of CARD_FILES.entries()) {
        const path = join(media.path, 'camera', name);
        await writeFile(path, `the bytes of ${name}`);
        const at = new Date(Date.UTC(2026, 5, 1, 10, index));
        await utimes(path, at, at);
      }
    });

    afterEach(async () => {
      await stopRunningClis();
      await owner?.close();
      owner = undefined;
      if (mounted) await unmount(card);
      mounted = false;
      await server.close();
      await home.remove();
      await media.remove();
    });

    async function insertCard(): Promise<void> {
      await mountTmpfs(card, 16);
      mounted = true;
      const files = CARD_FILES.map((name) => join(media.path, 'camera', name));
      await promisify(execFile)('cp', ['--preserve=timestamps', ...files, card]);
    }

    async function ejectCard(): Promise<void> {
      await unmount(card);
      mounted = false;
    }

    const start = async () =>
      (owner = await startInProcessOwner(home.path, { engine: { settleMs: 300, folderCheckMs: FOLDER_CHECK_MS } }));

    async function until(what: string, check: (status: FolderStatus) => boolean): Promise<FolderStatus> {
      let last: FolderStatus | undefined;
      try {
        return await waitFor(
          async () => {
            [last] = await owner!.contract.invoke('folders:status', {});
            return last && check(last) ? last : undefined;
          },
          30_000,
          what,
        );
      } catch (error) {
        throw new Error(`${(error as Error).message}; last status: ${JSON.stringify(last)}`, { cause: error });
      }
    }

    async function serverFileNames(): Promise<string[]> {
      const body = JSON.parse((await server.api('/files?per_page=100')).body.toString()) as {
        data: Array<{ filename: string }>;
      };
      return body.data.map((file) => file.filename).sort();
    }

    it('says "not connected" while it is out, and uploads nothing twice when it is back', async () => {
      await insertCard();
      await start();
      const account = await owner!.contract.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
      const folder = await owner!.contract.invoke('folders:add', { accountId: account.id, path: card });
      await until('the card uploaded', (status) => status.counts.uploaded === 3 && status.state.kind === 'watching');
      const firstDevice = (await stat(card)).dev;

      await ejectCard();
      // the folder stays, empty, on the disk above: not "up to date, 0 files"
      expect((await stat(card)).dev).not.toBe(firstDevice);
      const out = await until('the card not connected', (status) => status.state.kind === 'problem');
      expect(out.state).toMatchObject({ kind: 'problem', problem: 'notConnected' });
      expect(out.counts).toMatchObject({ uploaded: 3, failed: 0 });
      const listed = await runCli(['folders'], { home: home.path });
      expect(listed).toMatchObject({ code: 0, stderr: '' });
      expect(listed.stdout).toMatch(
        new RegExp(
          `^#${folder.id} +${card} +not connected: is its drive plugged in\\? It is watched again once it is back`,
        ),
      );

      // a restart while it is out knows the drive it was on
      await owner!.close();
      owner = undefined;
      await start();
      await until('the card still not connected after a restart', (status) => status.state.kind === 'problem');
      expect((await owner!.contract.invoke('folders:status', {}))[0]!.state).toMatchObject({ problem: 'notConnected' });

      // back, a new mount with new inodes, the same names, sizes and times; and a new photo on it
      await insertCard();
      await writeFile(join(card, 'DSC0004.JPG'), 'a photo taken since');
      const back = await until('the card back and its new photo uploaded', (status) => status.counts.uploaded === 4);
      await owner!.contract.invoke('folders:whenSettled', {});
      await owner!.engine.queue.whenIdle();
      expect(back.counts).toMatchObject({ uploaded: 4, failed: 0, skipped: 0 });
      expect(await serverFileNames()).toEqual([...CARD_FILES, 'DSC0004.JPG'].sort());
      // one upload each: none of the card's files queued a second time
      expect(
        owner!.engine.uploads
          .list()
          .map((item) => item.fileName)
          .sort(),
      ).toEqual([...CARD_FILES, 'DSC0004.JPG'].sort());
      await until('the card up to date', (status) => status.state.kind === 'watching');
    });
  },
);
