import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { AppCore } from '../../src-main/core/app-core.js';
import { callCore } from './app-core-fixture.js';
import type { Log } from '../../src-main/common/file-log.js';

/** What a fuzz run must leave as it found it: an account, a watched folder, a waiting upload, changed settings. */
export interface SeededState {
  accountId: string;
  folderId: number;
  itemId: number;
}

/**
 * Signs in to the reference server and gives the app some state to lose: the
 * queue paused until resumed with one file waiting in it, an empty watched
 * folder and two settings away from their defaults.
 */
export async function seedState(core: AppCore, server: { baseUrl: string; token: string }, dataDir: string) {
  const account = await callCore(core, 'account:signIn', { baseUrl: server.baseUrl, token: server.token });
  await callCore(core, 'settings:update', { concurrency: 2, notifications: { uploadsDone: false } });
  await callCore(core, 'uploads:pauseAll', { until: null });
  const file = join(dataDir, 'waiting.mp4');
  await writeFile(file, Buffer.alloc(4096, 1));
  const [item] = await callCore(core, 'uploads:addPaths', { accountId: account.id, paths: [file] });
  const folderPath = join(dataDir, 'watched');
  await mkdir(folderPath);
  const folder = await callCore(core, 'folders:add', {
    accountId: account.id,
    path: folderPath,
    options: { uploadExisting: false },
  });
  return { accountId: account.id, folderId: folder.id, itemId: item!.id } satisfies SeededState;
}

/** Settings, accounts, the queue, folders and notifications as the UI would read them. */
export async function appState(core: AppCore): Promise<unknown> {
  const names = [
    'settings:get',
    'account:list',
    'uploads:list',
    'uploads:status',
    'folders:list',
    'notifications:list',
  ] as const;
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await callCore(core, name, {})])));
}

/**
 * Valid commands that would change the seeded state: a fuzz sends them with a
 * broken envelope or from a frame that may not call, and they must not run.
 */
export function stateChangingRequests(state: SeededState): Array<{ name: string; request: unknown }> {
  return [
    { name: 'uploads:resumeAll', request: {} },
    { name: 'uploads:cancel', request: { id: state.itemId } },
    { name: 'uploads:clearFinished', request: {} },
    { name: 'notifications:clear', request: {} },
    { name: 'settings:update', request: { concurrency: 5 } },
    { name: 'folders:remove', request: { id: state.folderId } },
    { name: 'account:signOut', request: { accountId: state.accountId } },
  ];
}

/** The own properties of the built-in prototypes a pollution would land on. */
export function prototypeSnapshot(): Record<string, string[]> {
  const protos = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype };
  return Object.fromEntries(Object.entries(protos).map(([name, proto]) => [name, Reflect.ownKeys(proto).map(String)]));
}

export function expectPrototypesClean(before: Record<string, string[]>): void {
  expect(prototypeSnapshot()).toEqual(before);
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty('polluted');
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
}

/** A Log that keeps what it is told, to show what a fuzz run made the app write. */
export function memoryLog(): Log & { entries: Array<{ level: string; message: string }> } {
  const entries: Array<{ level: string; message: string }> = [];
  return {
    entries,
    info: (message) => void entries.push({ level: 'info', message }),
    warn: (message) => void entries.push({ level: 'warn', message }),
    error: (message, cause) =>
      void entries.push({ level: 'error', message: `${message} ${cause instanceof Error ? cause.message : ''}` }),
  };
}
