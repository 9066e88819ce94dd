import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAN_MOUNT, fillDisk, MOUNT_SKIP_NOTE } from '../helpers/tmpfs.js';
import { accessibilityViolations, folderCard, screenshot, startApp, type AppHarness } from './app-harness.js';

const FILES = ['a.mp4', 'b.mp4', 'c.mp4', 'd.mp4', 'e.mp4'];

/**
 * Media Sync's own disk full, in the page, against the real daemon: its data
 * folder (database, log) on a 48 MB tmpfs filled to the last byte while a
 * watched folder on another disk gets five files. The folder's card, the
 * Queue and a toast say it; once there is room the files go by themselves.
 */
describe.skipIf(!CAN_MOUNT)(`Media Sync's disk full, in the page${MOUNT_SKIP_NOTE}`, () => {
  let app: AppHarness;
  let camera: string;

  beforeAll(async () => {
    app = await startApp({ signIn: true, dataDiskMb: 48 });
    camera = join(app.scratch, 'Camera');
    await mkdir(camera);
    const accounts = await app.contract.invoke('account:list', {});
    if (!accounts.ok) throw new Error(JSON.stringify(accounts));
    const [account] = accounts.value as Array<{ id: string }>;
    const added = await app.contract.invoke('folders:add', { accountId: account!.id, path: camera });
    if (!added.ok) throw new Error(JSON.stringify(added));
  });
  afterAll(async () => {
    await app?.close();
  });

  async function filesOnService(): Promise<string[]> {
    const answer = await app.server.api('/files?per_page=100');
    return (JSON.parse(answer.body.toString()) as { data: { name: string }[] }).data.map((file) => file.name).sort();
  }

  it('says so in the folder’s card, the Queue and a toast, and uploads the files once there is room', async () => {
    const page = await app.open();
    const origin = new URL(app.url).origin;
    await page.goto(`${origin}/#/folders`);
    const card = folderCard(page, camera);
    await card.getByText(/^Up to date since /).waitFor();

    const filler = await fillDisk(app.dataDir);
    for (const name of FILES) await writeFile(join(camera, name), `the bytes of ${name}\n`.repeat(300));
    await card.getByText('Media Sync’s disk is full', { exact: true }).waitFor({ timeout: 30_000 });
    await card.getByText(/Free some space on the disk of Media Sync’s data folder\.$/).waitFor();
    // the notification, as a toast that stays until dismissed
    const toasts = page.getByRole('region', { name: 'Notifications' });
    await toasts.locator('.toast--error', { hasText: 'Media Sync’s disk is full' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'folders-data-disk-full');

    await page.goto(`${origin}/#/queue`);
    await page.getByText(`Media Sync’s disk is full: ${FILES.length} files wait`).waitFor({ timeout: 10_000 });
    expect(await filesOnService()).toEqual([]);

    await rm(filler);
    await page.getByText(/^Media Sync’s disk is full: /).waitFor({ state: 'detached', timeout: 30_000 });
    await page.goto(`${origin}/#/folders`);
    await card.getByText(/^Up to date since /).waitFor({ timeout: 30_000 });
    expect(await filesOnService()).toEqual(FILES);
    await page.close();
  });
});
