import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  chooseFolderInPage,
  folderCard,
  screenshot,
  startApp,
  type AppHarness,
} from './app-harness.js';

let app: AppHarness;

beforeAll(async () => {
  app = await startApp({ signIn: true });
});
afterAll(async () => {
  await app?.close();
});

describe('notifications people keep on', () => {
  it("sets a folder's Notify me in its form, kept by the core and shown when it is edited, all passing axe", async () => {
    const page = await app.open();
    const camera = join(app.scratch, 'Camera');
    await mkdir(camera, { recursive: true });
    const form = await chooseFolderInPage(page, camera);
    // a summary per batch unless the person chooses otherwise
    expect(await form.getByLabel('Notify me').inputValue()).toBe('batch');
    await form.getByLabel('Notify me').selectOption({ label: 'Only about problems' });
    expect(await accessibilityViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Add folder' }).click();
    await page.getByText(`Now watching ${camera}.`).waitFor();
    expect(await app.contract.invoke('folders:list')).toMatchObject({
      ok: true,
      value: [{ path: camera, options: { notify: 'problems' } }],
    });

    await folderCard(page, camera)
      .getByRole('button', { name: `Edit the options of ${camera}` })
      .click();
    const edit = page.getByRole('form', { name: `Options of ${camera}` });
    expect(await edit.getByLabel('Notify me').inputValue()).toBe('problems');
    await edit.getByLabel('Notify me').selectOption({ label: 'Never' });
    await edit.getByRole('button', { name: 'Save folder' }).click();
    await expect
      .poll(async () => JSON.stringify(await app.contract.invoke('folders:list')), { timeout: 10_000 })
      .toContain('"notify":"never"');
    await page.close();
  });

  it('snoozes notifications for an hour in Settings, says until when after a reload, and turns them on again', async () => {
    const page = await app.open();
    await page.goto(`${new URL(app.url).origin}/#/settings/notifications`);
    const snooze = page.getByRole('group', { name: 'Snooze notifications' });
    await snooze.getByText('Notifications are on.').waitFor();
    await snooze.getByRole('button', { name: 'For 1 hour' }).click();
    await snooze.getByText(/^Snoozed until .+\.$/).waitFor();

    // the page says it as soon as it is asked (the setting's pending change); the core keeps it a moment later
    const snoozed = async () =>
      ((await app.contract.invoke('settings:get')) as { value: { notificationsSnoozed: { until: number } | null } })
        .value.notificationsSnoozed;
    await expect.poll(snoozed).not.toBeNull();
    const until = (await snoozed())!.until;
    expect(until - Date.now()).toBeGreaterThan(3_500_000);
    expect(until - Date.now()).toBeLessThanOrEqual(3_600_000);
    await page.reload();
    // the time in the page's locale ("Snoozed until 14:05.")
    await snooze.getByText(/^Snoozed until .*\d{1,2}.\d{2}.*\.$/).waitFor();
    expect(await snooze.getByRole('button', { name: 'For 1 hour' }).count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'settings-snooze');

    await snooze.getByRole('button', { name: 'Turn notifications on' }).click();
    await snooze.getByText('Notifications are on.').waitFor();
    await expect.poll(snoozed).toBeNull();
    await page.close();
  });
});
