import type { Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpdateStatus } from '../../src-shared/model/update-status.js';
import { accessibilityViolations, screenshot, startApp, type AppHarness } from './app-harness.js';

let app: AppHarness;
let version: string;
let reason: string;

beforeAll(async () => {
  app = await startApp({ signIn: true });
  const info = await app.contract.invoke('app:info');
  const status = await app.contract.invoke('app:updateStatus');
  if (!info.ok || !status.ok) throw new Error('app:info or app:updateStatus failed');
  version = (info.value as { version: string }).version;
  const unavailable = status.value as UpdateStatus;
  if (unavailable.state !== 'unavailable') throw new Error(`the daemon answered ${unavailable.state}`);
  reason = unavailable.reason;
});
afterAll(async () => {
  await app?.close();
});

async function openSettings(page: Page): Promise<void> {
  await page.goto(`${new URL(app.url).origin}/#/settings/updates`);
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
}

describe('updates', () => {
  it('in a browser: Settings shows the version and why the daemon does not update itself, and no banner', async () => {
    const page = await app.open();
    await openSettings(page);
    const section = page.getByRole('region', { name: 'Updates' });
    await section.getByText(`You are using Media Sync ${version}.`).waitFor();
    // the reason in the polite live region, its `media-sync serve` in code style
    const status = section.getByRole('status').first();
    expect(await status.textContent()).toBe(reason.replaceAll('`', ''));
    expect(await status.locator('code').textContent()).toBe('media-sync serve');
    const check = section.getByRole('button', { name: 'Check for updates' });
    expect(await check.isDisabled()).toBe(true);
    // the update address is the desktop app's
    expect(await page.getByLabel('Update address').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Restart to update' }).count()).toBe(0);
    expect(await page.getByText(/is ready to install/).count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.close();
  });

  /*
   * The daemon never has an update of its own, so these states come from the
   * test: its events go to the page over the page's own WebSocket to the real
   * daemon (Playwright's routeWebSocket forwards everything else both ways),
   * and the page parses them with the contract's schema as it does the
   * daemon's. Commands still go to the daemon, which answers as it would.
   */
  it('shows a downloaded update as a banner with Restart to update, and the states in Settings', async () => {
    const page = await app.open();
    let socket: WebSocketRoute | null = null;
    await page.routeWebSocket(/\/ipc(\?|$)/, (route) => {
      route.connectToServer();
      socket = route;
    });
    // the page opened its socket before the route: a reload opens it again, through the route
    await openSettings(page);
    await page.reload();
    const section = page.getByRole('region', { name: 'Updates' });
    await section.getByText(reason.replaceAll('`', '')).waitFor();
    const send = (payload: UpdateStatus) => {
      if (!socket) throw new Error('the page has not opened its socket');
      socket.send(JSON.stringify({ event: 'app:updateChanged', payload }));
    };

    send({ state: 'downloading', version: '9.9.9', percent: 42.7 });
    await section.getByRole('status').getByText('Downloading Media Sync 9.9.9: 42% done.').waitFor();
    expect(await section.getByRole('button', { name: 'Check for updates' }).isDisabled()).toBe(true);
    expect(await page.getByText('Media Sync 9.9.9 is ready to install.').count()).toBe(0);

    send({ state: 'ready', version: '9.9.9' });
    const banner = page.locator('.update-banner');
    await banner.getByText('Media Sync 9.9.9 is ready to install.').waitFor();
    expect(await banner.getAttribute('role')).toBe('status');
    await section.getByRole('status').getByText('Media Sync 9.9.9 is ready to install.').waitFor();
    await section.getByRole('button', { name: 'Restart to update' }).waitFor();
    // nothing modal, nothing taking focus
    expect(await page.locator('dialog[open]').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'update-ready');

    // the real daemon has nothing to install: its refusal is shown where the button was pressed
    await banner.getByRole('button', { name: 'Restart to update' }).click();
    await banner.getByRole('alert').getByText('No update has been downloaded yet: check for updates first.').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    await banner.getByRole('button', { name: 'Later' }).click();
    await banner.waitFor({ state: 'detached' });
    // Settings still offers it
    await section.getByRole('button', { name: 'Restart to update' }).waitFor();

    send({
      state: 'failed',
      message: 'Media Sync could not reach its update server.',
      checkedAt: new Date().toISOString(),
    });
    await section.getByRole('status').getByText('Media Sync could not reach its update server.').waitFor();
    await section
      .getByRole('status')
      .getByText(/^Last checked .+\.$/)
      .waitFor();
    expect(await section.getByRole('button', { name: 'Check for updates' }).isEnabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Restart to update' }).count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);

    // a check asks the real daemon, and Settings shows where it ended: the daemon does not update itself
    await section.getByRole('button', { name: 'Check for updates' }).click();
    await section.getByRole('status').getByText(reason.replaceAll('`', '')).waitFor();
    expect(await section.getByRole('button', { name: 'Check for updates' }).isDisabled()).toBe(true);
    await page.close();
  });
});
