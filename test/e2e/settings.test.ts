import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, startApp, type AppHarness } from './app-harness.js';

let app: AppHarness;

beforeAll(async () => {
  app = await startApp({ signIn: true });
});
afterAll(async () => {
  await app?.close();
});

describe('settings', () => {
  it('lists its sections beside it, each at an address of its own, all passing axe', async () => {
    const page = await app.open();
    const origin = new URL(app.url).origin;
    await page.goto(`${origin}/#/settings`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const sections = page.getByRole('navigation', { name: 'Settings sections' });
    expect(await sections.getByRole('link').allTextContents()).toEqual([
      'General',
      'Uploads',
      'Notifications',
      'Accounts',
      'Updates',
      'Support and logs',
    ]);
    // the first section when none is named; watched folders are no longer here
    expect(await sections.getByRole('link', { name: 'General' }).getAttribute('aria-current')).toBe('page');
    await page.getByRole('combobox', { name: 'Language' }).waitFor();
    expect(await page.getByText('Watched folders').count()).toBe(0);
    const headings: Record<string, string> = {
      General: 'Start at login',
      Uploads: 'Schedule',
      Notifications: 'Notifications',
      Accounts: 'Accounts and tokens',
      Updates: 'Updates',
      'Support and logs': 'Support',
    };
    for (const [link, heading] of Object.entries(headings)) {
      await sections.getByRole('link', { name: link }).click();
      await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
      expect(await sections.getByRole('link', { name: link }).getAttribute('aria-current')).toBe('page');
      expect(await accessibilityViolations(page), link).toEqual([]);
    }
    // an address opens its section: a link or a notification can point there
    await page.goto(`${origin}/#settings/uploads`);
    await page.getByLabel('Uploads at the same time').waitFor();
    expect(new URL(page.url()).hash).toBe('#settings/uploads');
    await page.close();
  });

  it('opens the section of an address that changed while the first view was still being drawn', async () => {
    // The address moves on the moment the app's first view is in the page, before the app listens
    // for changes to it: a link opened as the window comes up, or a test that goes to a section
    // right after the page loads. The change makes no hashchange event, so only an app that reads
    // the address as it starts listening sees it.
    const page = await app.open('light', (page) =>
      page.addInitScript(() => {
        const moved = new MutationObserver(() => {
          if (!document.querySelector('#root main, #root .app')) return;
          moved.disconnect();
          history.replaceState(null, '', '#/settings/support');
        });
        moved.observe(document, { childList: true, subtree: true });
      }),
    );
    await page.getByRole('button', { name: 'Save a support file…' }).waitFor({ timeout: 10_000 });
    await page.close();
  });

  it('edits the upload settings and the notifications, and both are kept after a reload', async () => {
    const page = await app.open();
    const origin = new URL(app.url).origin;
    await page.goto(`${origin}/#/settings/accounts`);
    // headless: a 0600 file is not encryption, and the page says so
    await page.getByText('This token is not encrypted').waitFor();

    await page.goto(`${origin}/#/settings/uploads`);
    await page.getByLabel('Uploads at the same time').selectOption('5');
    expect(await page.getByLabel('Remove finished uploads from the queue after').inputValue()).toBe('7');
    await page.getByLabel('Remove finished uploads from the queue after').selectOption({ label: '30 days' });
    await page.getByRole('radio', { name: 'Limit all uploads together' }).check();
    await page.getByLabel('Limit in MB/s').fill('0');
    await page.getByLabel('Proxy for API traffic').fill('ftp://proxy.example');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Enter a speed above 0 MB/s').waitFor();
    await page.getByText('Enter a proxy address starting with http:// or https://').waitFor();
    await page.getByLabel('Limit in MB/s').fill('2.5');
    await page.getByLabel('Proxy for API traffic').fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    await screenshot(page, 'settings');

    // a switch applies as it is flipped
    await page
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('link', { name: 'Notifications' })
      .click();
    await page.getByRole('checkbox', { name: 'An import completed' }).uncheck();
    await page.getByText('Settings saved.').waitFor();

    await page.reload();
    await page.getByRole('checkbox', { name: 'Uploads finished' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'An import completed' }).isChecked()).toBe(false);
    expect(await page.getByRole('checkbox', { name: 'Uploads finished' }).isChecked()).toBe(true);
    // on by default, like every switch
    expect(await page.getByRole('checkbox', { name: 'Ready to watch' }).isChecked()).toBe(true);
    await page.goto(`${origin}/#/settings/uploads`);
    await page.getByLabel('Limit in MB/s').waitFor();
    expect(await page.getByLabel('Uploads at the same time').inputValue()).toBe('5');
    expect(await page.getByLabel('Remove finished uploads from the queue after').inputValue()).toBe('30');
    expect(await page.getByLabel('Limit in MB/s').inputValue()).toBe('2.5');
    expect(await app.contract.invoke('settings:get')).toMatchObject({
      ok: true,
      value: {
        concurrency: 5,
        bandwidthBytesPerSecond: 2_500_000,
        notifications: { importCompleted: false },
        removeFinishedAfterDays: 30,
      },
    });
    await page.close();
  });

  it("edits the upload schedule and the battery switch, kept after a reload; the queue names the schedule's pause", async () => {
    const page = await app.open();
    await page.goto(`${new URL(app.url).origin}/#/settings/uploads`);
    const form = page.getByRole('form', { name: 'Schedule' });
    await form.getByText('No schedule').waitFor();

    await form.getByRole('button', { name: 'Add a window' }).click();
    // the example people start from: weekdays 09:00–18:00 at 2 MB/s
    expect(await form.getByLabel('From (window 1)').inputValue()).toBe('09:00');
    expect(await form.getByRole('checkbox', { name: 'Friday' }).isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: 'Saturday' }).isChecked()).toBe(false);
    await form.getByLabel('Speed in MB/s (window 1)').fill('0');

    await form.getByRole('button', { name: 'Add a window' }).click();
    await form.getByRole('checkbox', { name: 'Monday' }).nth(1).uncheck();
    for (const day of ['Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
      await form.getByRole('checkbox', { name: day }).nth(1).uncheck();
    }
    await form.getByRole('button', { name: 'Save schedule' }).click();
    await form.getByText('Enter a speed above 0 MB/s, or choose to pause.').waitFor();
    await form.getByText('Choose at least one day.').waitFor();

    await form.getByLabel('Speed in MB/s (window 1)').fill('2.5');
    await form.getByRole('checkbox', { name: 'Saturday' }).nth(1).check();
    await form.getByLabel('From (window 2)').fill('22:00');
    await form.getByLabel('To (window 2)').fill('06:00');
    await form.getByText(/^From .+ to .+ the next day\.$/).waitFor();
    await form.getByRole('group', { name: 'Window 2' }).getByRole('radio', { name: 'Pause uploads' }).check();
    await form.getByRole('checkbox', { name: 'Pause while on battery' }).check();
    await form.getByRole('button', { name: 'Save schedule' }).click();
    await form.getByText('Schedule saved.').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'settings-schedule');

    await page.reload();
    const reloaded = page.getByRole('form', { name: 'Schedule' });
    await reloaded.getByLabel('Speed in MB/s (window 1)').waitFor();
    expect(await reloaded.getByLabel('Speed in MB/s (window 1)').inputValue()).toBe('2.5');
    expect(await reloaded.getByLabel('To (window 2)').inputValue()).toBe('06:00');
    expect(await reloaded.getByRole('checkbox', { name: 'Pause while on battery' }).isChecked()).toBe(true);
    expect(await app.contract.invoke('settings:get')).toMatchObject({
      ok: true,
      value: {
        pauseOnBattery: true,
        schedule: [
          {
            days: ['mon', 'tue', 'wed', 'thu', 'fri'],
            from: '09:00',
            to: '18:00',
            action: { kind: 'limit', bytesPerSecond: 2_500_000 },
          },
          { days: ['sat'], from: '22:00', to: '06:00', action: { kind: 'pause' } },
        ],
      },
    });

    // a pause window around now, every day: the queue says why it waits, and until when
    // local HH:MM: the daemon inherits this process's zone
    const hhmm = (ms: number) => new Date(ms).toTimeString().slice(0, 5);
    const now = Date.now();
    const window = {
      days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      from: hhmm(now - 3_600_000),
      to: hhmm(now + 3_600_000),
      action: { kind: 'pause' },
    };
    // the daemon reads windows in its own zone: the test's TZ is the daemon's
    expect(await app.contract.invoke('settings:update', { schedule: [window], pauseOnBattery: false })).toMatchObject({
      ok: true,
    });
    await page.goto(`${new URL(app.url).origin}/#/queue`);
    await page.getByText(/^Paused until .+ \(schedule\)$/).waitFor();
    await screenshot(page, 'queue-schedule');
    // Resume all is the person's; the schedule's hold stays
    expect(await page.getByRole('button', { name: 'Resume all' }).count()).toBe(0);
    await app.contract.invoke('settings:update', { schedule: [] });
    await page.getByText(/^Paused until .+ \(schedule\)$/).waitFor({ state: 'detached' });
    await page.close();
  });

  it('exports diagnostics as a file, with no token in it', async () => {
    const page = await app.open();
    await page.goto(`${new URL(app.url).origin}/#/settings/support`);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export diagnostics' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^media-sync-diagnostics-.*\.json$/);
    const text = await (await file.createReadStream()).toArray();
    const report = JSON.parse(Buffer.concat(text).toString()) as { settings: { concurrency: number } };
    expect(report.settings.concurrency).toBe(5);
    expect(Buffer.concat(text).toString()).not.toContain(app.server.token);
    await page.close();
  });

  it('shows the log folder in a browser, copies its path, and the diagnostics carry the last lines of the log', async () => {
    const page = await app.open();
    const origin = new URL(app.url).origin;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await page.goto(`${origin}/#/settings/support`);
    const folder = join(app.dataDir, 'logs');
    await page.getByRole('heading', { name: 'Logs', level: 3 }).waitFor();
    await page.getByText('they never contain your token').waitFor();
    await page.getByText(folder, { exact: true }).waitFor();
    // a page cannot open a folder on the daemon's machine: no such button here
    expect(await page.getByRole('button', { name: 'Open logs folder' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Copy path' }).click();
    await page.getByText('The path of the log folder is copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(folder);
    expect(await accessibilityViolations(page)).toEqual([]);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export diagnostics' }).click();
    const text = Buffer.concat(await (await (await download).createReadStream()).toArray()).toString();
    const report = JSON.parse(text) as { logs: { folder: string; recent: string[] } };
    expect(report.logs.folder).toBe(folder);
    expect(
      report.logs.recent.some((line) => / INFO {2}Signed in: demo at http:\/\/127\.0\.0\.1:\d+\/api\/v1\.$/.test(line)),
    ).toBe(true);
    expect(text).not.toContain(app.server.token);
    await page.close();
  });
});
