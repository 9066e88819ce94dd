import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, addFolderInPage, folderCard, startApp, type AppHarness } from './app-harness.js';

/**
 * Signing out and in again, as a person does it in the browser: "Try it
 * locally", a watched folder, Sign out (asked first, saying what happens to
 * the folder and the queue), the folder's card saying its account is signed
 * out, and its "Sign in again" leading back to the same account, whose
 * folder goes on.
 */
let app: AppHarness;

beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

describe('signing out and in again', () => {
  it('asks first, says the folder waits, and the same account signed in again takes it back', async () => {
    const camera = join(app.scratch, 'Camera');
    await mkdir(camera);
    const page = await app.open();
    await page.getByRole('button', { name: 'Try it locally' }).click();
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    const demo = (await app.contract.invoke('account:list', {})) as { ok: true; value: Array<{ baseUrl: string }> };
    const demoHost = new URL(demo.value[0]!.baseUrl).host;
    await addFolderInPage(page, camera);
    const card = folderCard(page, camera);
    await writeFile(join(camera, 'a.jpg'), 'the first photo');
    const uploaded = () => card.locator('dt:text-is("Uploaded in all") + dd').textContent();
    await expect.poll(uploaded, { timeout: 30_000 }).toBe('1');
    // a second account keeps the app open while the first is signed out
    await app.contract.invoke('account:signIn', { baseUrl: app.server.baseUrl, token: app.server.token });

    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Account' }).click();
    await page.getByRole('button', { name: `Sign out of demo on ${demoHost}` }).click();
    const dialog = page.getByRole('dialog', { name: `Sign out of demo on ${demoHost}?` });
    await dialog.getByText('Its 1 watched folder stops uploading.', { exact: false }).waitFor();
    await dialog.getByText(/^Files waiting in the queue stay there, with what they have sent\./).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await dialog.waitFor({ state: 'detached' });

    await writeFile(join(camera, 'b.jpg'), 'a photo taken while signed out');
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Folders' }).click();
    await card.getByText('Its account is signed out').waitFor({ timeout: 30_000 });
    await card.getByText(`Sign in to demo on ${demoHost} again and they go on`, { exact: false }).waitFor();
    expect(await card.getByRole('combobox', { name: 'Move to' }).locator('option:checked').textContent()).toBe(
      `demo on ${new URL(app.server.baseUrl).host}`,
    );
    expect(await accessibilityViolations(page)).toEqual([]);

    await card.getByRole('button', { name: `Sign in again to the account of ${camera}` }).click();
    await page.getByRole('heading', { name: 'Add an account' }).waitFor();
    expect(await page.getByLabel('Server address').inputValue()).toBe(demo.value[0]!.baseUrl);
    await page.getByRole('button', { name: 'Try it locally' }).click();
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Folders' }).click();
    await expect.poll(uploaded, { timeout: 30_000 }).toBe('2');
    await card.getByText(/^Up to date since /).waitFor({ timeout: 30_000 });
    await page.close();
  });
});
