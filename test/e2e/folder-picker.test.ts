import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, startApp, type AppHarness } from './app-harness.js';

let app: AppHarness;
/** the daemon's home folder: where its folder browser starts */
let home: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'media-sync-e2e-home-'));
  await mkdir(join(home, 'Videos', 'To upload'), { recursive: true });
  await mkdir(join(home, 'Music'));
  await mkdir(join(home, '.secrets'));
  await writeFile(join(home, 'Videos', 'clip.mp4'), 'a file, not a folder');
  app = await startApp({ signIn: true, env: { HOME: home } });
});
afterAll(async () => {
  await app?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

/** Folders, and "Add a folder": the folder browser opens, at the daemon's home folder. */
async function startAdding(page?: Page): Promise<Page> {
  page ??= await app.open();
  await page.goto(`${new URL(app.url).origin}/#/folders`);
  await page.getByRole('heading', { name: 'Folders', level: 1 }).waitFor();
  await page.getByRole('button', { name: /^Add a folder/ }).click();
  return page;
}

async function watchedPaths(): Promise<string[]> {
  const result = await app.contract.invoke('folders:list');
  if (!result.ok) throw new Error(result.error.message);
  return (result.value as Array<{ path: string }>).map((folder) => folder.path);
}

describe('choosing a folder in the browser', () => {
  it('browses from the home folder into a folder, by mouse and keyboard, and the daemon watches it', async () => {
    const page = await startAdding();
    const dialog = page.getByRole('dialog', { name: 'Choose a folder to watch' });
    const status = dialog.getByRole('status');
    await status.getByText(`“${home}” has 2 subfolders.`).waitFor();
    expect(await dialog.getByLabel('Go to').inputValue()).toBe(home);
    const entries = (path: string) => dialog.getByRole('list', { name: `Subfolders of ${path}` }).getByRole('button');
    expect(await entries(home).allTextContents()).toEqual(['Music', 'Videos']);
    expect(await dialog.getByRole('button', { name: 'Up' }).isEnabled()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'folder-browser');

    await dialog.getByRole('checkbox', { name: 'Show hidden folders' }).check();
    await status.getByText(`“${home}” has 3 subfolders.`).waitFor();
    expect(await entries(home).allTextContents()).toEqual(['.secrets', 'Music', 'Videos']);
    await dialog.getByRole('checkbox', { name: 'Show hidden folders' }).uncheck();
    await status.getByText(`“${home}” has 2 subfolders.`).waitFor();

    // the list is one Tab stop; the arrow keys move in it and Enter opens a folder
    await entries(home).first().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const videos = join(home, 'Videos');
    await status.getByText(`“${videos}” has 1 subfolder.`).waitFor();
    expect(await dialog.getByLabel('Go to').inputValue()).toBe(videos);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('To upload');

    await page.keyboard.press('Enter');
    const target = join(videos, 'To upload');
    await status.getByText(`“${target}” has no subfolders, apart from any hidden ones.`).waitFor();
    await dialog.getByRole('button', { name: 'Up' }).click();
    await status.getByText(`“${videos}” has 1 subfolder.`).waitFor();
    await entries(videos).getByText('To upload').click();
    await status.getByText(`“${target}” has no subfolders`).waitFor();
    await dialog.getByRole('button', { name: 'Choose this folder' }).click();
    await dialog.waitFor({ state: 'detached' });

    // the options come after the choice
    const form = page.getByRole('form', { name: 'Watch this folder' });
    expect(await form.getByLabel('Folder path').inputValue()).toBe(target);
    await form.getByRole('button', { name: 'Add folder' }).click();
    await page.getByRole('article', { name: target, exact: true }).waitFor();
    expect(await watchedPaths()).toEqual([target]);
    await page.close();
  });

  it('chooses the path typed under Go to, refuses one that is not a folder, and Cancel leaves the form as it was', async () => {
    const page = await startAdding();
    const before = await watchedPaths();
    const dialog = page.getByRole('dialog', { name: 'Choose a folder to watch' });
    await dialog.getByRole('status').getByText(`“${home}” has 2 subfolders.`).waitFor();
    // typed, not gone to: Choose takes what the field says, never the home folder on screen
    await dialog.getByLabel('Go to').fill('~/Music');
    await dialog.getByRole('button', { name: 'Choose this folder' }).click();
    await dialog.waitFor({ state: 'detached' });
    const field = page.getByRole('form', { name: 'Watch this folder' }).getByLabel('Folder path');
    expect(await field.inputValue()).toBe(join(home, 'Music'));

    // a path typed into the form: the browser opens there, and Cancel leaves it
    const typed = join(home, 'Videos', 'To upload');
    await field.fill(typed);
    await page.getByRole('button', { name: 'Choose…' }).click();
    await dialog.getByRole('status').getByText(`“${typed}” has no subfolders`).waitFor();
    await dialog.getByLabel('Go to').fill(home);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await field.inputValue()).toBe(typed);

    // a file typed and chosen: said inline, nothing chosen, until the path is typed again
    const file = join(home, 'Videos', 'clip.mp4');
    await page.getByRole('button', { name: 'Choose…' }).click();
    await dialog.getByRole('status').getByText(`“${typed}” has no subfolders`).waitFor();
    await dialog.getByLabel('Go to').fill(file);
    await dialog.getByRole('button', { name: 'Choose this folder' }).click();
    const refusal = dialog.getByRole('alert').getByText(`“${file}” is a file, not a folder.`);
    await refusal.waitFor();
    await dialog.getByLabel('Go to').fill(join(home, 'Videos'));
    await refusal.waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await field.inputValue()).toBe(typed);
    expect(await watchedPaths()).toEqual(before);
    await page.close();
  });

  it('keeps what the person types under Go to while the first folder still loads, and goes there on Enter', async () => {
    const page = await app.open();
    // the daemon's first listing (the home folder) is held until the person has typed; an answer that
    // comes after that (a slow daemon) goes through at once
    let released = false;
    let deliver: () => void = () => undefined;
    const release = () => {
      released = true;
      deliver();
    };
    await page.routeWebSocket(/\/ipc(\?|$)/, (route) => {
      const server = route.connectToServer();
      let held: number | null = null;
      route.onMessage((message) => {
        const sent = JSON.parse(String(message)) as { id: number; name: string };
        if (sent.name === 'folders:browse' && held === null) held = sent.id;
        server.send(message);
      });
      server.onMessage((message) => {
        const answer = JSON.parse(String(message)) as { id?: number };
        if (answer.id !== undefined && answer.id === held && !released) deliver = () => route.send(message);
        else route.send(message);
      });
    });
    // the page opened its socket before the route: a reload opens it again, through the route
    await page.reload();
    await startAdding(page);
    const dialog = page.getByRole('dialog', { name: 'Choose a folder to watch' });
    await dialog.getByRole('status').getByText('Loading the folders…').waitFor();
    const music = join(home, 'Music');
    await dialog.getByLabel('Go to').fill(music);
    release();
    await dialog.getByRole('status').getByText(`“${home}” has 2 subfolders.`).waitFor();
    expect(await dialog.getByLabel('Go to').inputValue()).toBe(music);
    await dialog.getByLabel('Go to').press('Enter');
    await dialog.getByRole('status').getByText(`“${music}” has no subfolders`).waitFor();
    expect(await dialog.getByLabel('Go to').inputValue()).toBe(music);
    await page.close();
  });

  it('says inline why a typed path cannot be opened or added, and adds nothing', async () => {
    const page = await startAdding();
    const before = await watchedPaths();
    const file = join(home, 'Videos', 'clip.mp4');

    const dialog = page.getByRole('dialog', { name: 'Choose a folder to watch' });
    await dialog.getByRole('status').getByText(`“${home}” has 2 subfolders.`).waitFor();
    await dialog.getByLabel('Go to').fill(file);
    await dialog.getByLabel('Go to').press('Enter');
    await dialog.getByRole('alert').getByText(`“${file}” is a file, not a folder.`).waitFor();
    // the folder shown before is still there to choose from
    await dialog.getByRole('list', { name: `Subfolders of ${home}` }).waitFor();
    await dialog.getByLabel('Go to').fill('~/Music');
    await dialog.getByRole('button', { name: 'Go', exact: true }).click();
    await dialog
      .getByRole('status')
      .getByText(`“${join(home, 'Music')}” has no subfolders`)
      .waitFor();
    expect(await dialog.getByRole('alert').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Home' }).click();
    await dialog.getByRole('status').getByText(`“${home}” has 2 subfolders.`).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // nothing chosen: no form
    expect(await page.getByLabel('Folder path').count()).toBe(0);

    // a path typed in the form after a choice is checked by the daemon too
    await startAdding(page);
    await dialog.getByRole('status').getByText(`“${home}” has 2 subfolders.`).waitFor();
    await dialog.getByRole('button', { name: 'Choose this folder' }).click();
    const field = page.getByLabel('Folder path');
    await field.fill(file);
    await page.getByRole('button', { name: 'Add folder' }).click();
    const message = `“${file}” is a file, not a folder. Choose the folder that holds it instead.`;
    const error = page.getByText(message);
    await error.waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    const errorId = await error.getAttribute('id');
    expect((await field.getAttribute('aria-describedby'))?.split(' ')).toContain(errorId);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-invalid'))).toBe('true');
    expect(await accessibilityViolations(page)).toEqual([]);

    await field.fill('Videos');
    expect(await field.getAttribute('aria-invalid')).toBeNull();
    await page.getByRole('button', { name: 'Add folder' }).click();
    await page.getByText('“Videos” is not a full path. Type the full path of the folder, starting with /').waitFor();
    expect(await watchedPaths()).toEqual(before);
    await page.close();
  });
});
