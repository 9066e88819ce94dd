import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBytes } from '../../src-shared/model/format.js';
import { fakeMp4 } from '../helpers/media-fixtures.js';
import { accessibilityViolations, fact, screenshot, startApp, type AppHarness } from './app-harness.js';

/** The Account view, and a second account added through the UI and switched to from the header. */
let app: AppHarness;
let bobToken: string;
let host: string;

beforeAll(async () => {
  app = await startApp({ signIn: true, server: { conversions: false } });
  host = new URL(app.server.baseUrl).host;
  await app.server.upload({ visibility: 1 }, { filename: 'demo-one.mp4', content: fakeMp4(10_000) });
  await app.server.upload({ visibility: 1 }, { filename: 'demo-two.mp4', content: fakeMp4(15_000) });
  bobToken = app.server.newAccount('bob');
  await app.server.upload({ visibility: 1 }, { filename: 'bob-only.mp4', content: fakeMp4(5_000) }, bobToken);
});
afterAll(async () => {
  await app?.close();
});

async function goTo(page: Page, view: 'Files' | 'Account') {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: view }).click();
  await page.getByRole('heading', { name: view, level: 1 }).waitFor();
}

describe('account', () => {
  it('shows the username, email, files, storage used and import counters', async () => {
    const page = await app.open();
    await goTo(page, 'Account');
    const summary = (await app.server.api('/account')).json.data;
    await page.getByText(summary.email, { exact: true }).waitFor();
    expect(await fact(page, 'Username')).toBe('demo');
    expect(await fact(page, 'Email')).toBe(summary.email);
    expect(await fact(page, 'Files')).toBe('2');
    expect(await fact(page, 'Storage used')).toBe(formatBytes(summary.storage_bytes));
    expect(await fact(page, 'Completed')).toBe('0');
    expect(await fact(page, 'Server')).toBe(app.server.baseUrl);
    expect(await fact(page, 'Token storage')).toBe('A file only your user can read (0600)');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'account');
    await page.close();
  });

  it('adds a second account through the UI and switches between the two, each with its own files', async () => {
    const page = await app.open();
    await goTo(page, 'Account');
    await page.getByRole('button', { name: 'Add an account' }).click();
    await page.getByRole('heading', { name: 'Add an account' }).waitFor();
    await page.getByLabel('Server address').fill(app.server.baseUrl);
    await page.getByLabel('API token').fill(bobToken);
    await page.getByRole('button', { name: 'Sign in' }).click();

    const switcher = page.getByLabel('Account', { exact: true });
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    expect(await switcher.locator('option:checked').textContent()).toBe(`bob on ${host}`);
    await goTo(page, 'Account');
    const accounts = page.getByRole('region', { name: 'Signed-in accounts' }).getByRole('listitem');
    await accounts.nth(1).waitFor();
    expect(await accounts.filter({ hasText: 'Active' }).locator('strong').textContent()).toBe(`bob on ${host}`);
    expect(await fact(page, 'Username')).toBe('bob');

    await goTo(page, 'Files');
    await page.getByRole('button', { name: 'bob-only.mp4' }).waitFor();
    expect(await page.getByRole('button', { name: 'demo-one.mp4' }).count()).toBe(0);

    await switcher.selectOption({ label: `demo on ${host}` });
    await page.getByRole('button', { name: 'demo-one.mp4' }).waitFor();
    expect(await page.getByRole('button', { name: 'bob-only.mp4' }).count()).toBe(0);

    // a search an address opened Files with (a folder's recent file) is that Files' alone: the next account's is not searched
    await page.goto(`${new URL(app.url).origin}/#/files?search=demo-one`);
    await expect.poll(() => page.getByRole('searchbox').inputValue()).toBe('demo-one');
    await switcher.selectOption({ label: `bob on ${host}` });
    await page.getByRole('button', { name: 'bob-only.mp4' }).waitFor();
    expect(await page.getByRole('searchbox').inputValue()).toBe('');
    expect(await page.content()).not.toContain(bobToken);
    expect(app.output()).not.toContain(bobToken);
    await page.close();
  });

  it('signs an account out only after confirming', async () => {
    const page = await app.open();
    await goTo(page, 'Account');
    const accounts = page.getByRole('region', { name: 'Signed-in accounts' }).getByRole('listitem');
    await accounts.nth(1).waitFor();
    await page.getByRole('button', { name: `Sign out of bob on ${host}` }).click();
    const dialog = page.getByRole('dialog', { name: `Sign out of bob on ${host}?` });
    await dialog.waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await accounts.count()).toBe(2);

    await page.getByRole('button', { name: `Sign out of bob on ${host}` }).click();
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await dialog.waitFor({ state: 'detached' });
    await accounts.nth(1).waitFor({ state: 'detached' });
    expect(await accounts.locator('strong').textContent()).toBe(`demo on ${host}`);
    const left = await app.contract.invoke('account:list', {});
    expect(left).toMatchObject({ ok: true, value: [{ username: 'demo' }] });
    expect(left.ok && (left.value as unknown[])).toHaveLength(1);
    await page.close();
  });
});
