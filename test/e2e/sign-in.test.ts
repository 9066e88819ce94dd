import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, startApp, type AppHarness } from './app-harness.js';

let app: AppHarness;

beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

describe('first run', () => {
  it('signs in with a token after a clear message for a wrong one, and shows the account', async () => {
    const page = await app.open();
    const consoleErrors: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && consoleErrors.push(message.text())));
    await page.getByRole('heading', { name: 'Welcome to Media Sync' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'first-run');

    await page.getByLabel('Server address').fill(app.server.baseUrl);
    await page.getByLabel('API token').fill('mfs_not-a-real-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('The server did not accept this token.').waitFor();
    expect(await alert.textContent()).toMatch(/Request id \S+/);
    // the field is emptied after every attempt: the token does not linger in the page
    expect(await page.getByLabel('API token').inputValue()).toBe('');
    // Sign in again with the field empty: the browser says the token is missing, and the refusal of the last one goes
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByLabel('API token').evaluate((field: HTMLInputElement) => field.validity.valueMissing)).toBe(
      true,
    );
    await alert.waitFor({ state: 'detached' });
    // refused again, then a field edited: the refusal goes with the token it was about
    await page.getByLabel('API token').fill('mfs_not-a-real-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await alert.getByText('The server did not accept this token.').waitFor();
    await page.getByLabel('Server address').fill(`${app.server.baseUrl}/`);
    await alert.waitFor({ state: 'detached' });
    await page.getByLabel('Server address').fill(app.server.baseUrl);

    await page.getByLabel('API token').fill(app.server.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    const host = new URL(app.server.baseUrl).host;
    expect(await page.getByLabel('Account', { exact: true }).locator('option:checked').textContent()).toBe(
      `demo on ${host}`,
    );
    expect(await page.content()).not.toContain(app.server.token);
    expect(app.output()).not.toContain(app.server.token);
    // no CSP violation, no failed script: the page runs under the daemon's strict policy
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('tells which permission a token lacks', async () => {
    const token = app.server.admin(['token', 'create'], { account: 'demo', abilities: 'files:write' }).token as string;
    const page = await app.open();
    await page.getByLabel('Account', { exact: true }).selectOption({ label: 'Add an account…' });
    await page.getByLabel('Server address').fill(app.server.baseUrl);
    await page.getByLabel('API token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert
      .getByText(/files:read permission/)
      .first()
      .waitFor();
    expect(await alert.textContent()).toContain('see the account, browse files and follow conversions');
    await page.close();
  });
});
