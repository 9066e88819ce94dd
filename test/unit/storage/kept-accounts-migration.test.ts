import { afterEach, beforeEach, expect, it } from 'vitest';
import { AccountStore } from '../../../src-main/storage/account-store.js';
import { openDatabase, type Db } from '../../../src-main/storage/database.js';
import { beforeKeptAccounts } from '../../helpers/older-database.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BASE = 'http://127.0.0.1:8790/api/v1';
let dir: string;
let db: Db | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-sync-accounts-migration-'));
});
afterEach(async () => {
  db?.close();
  await rm(dir, { recursive: true, force: true });
});

it('an account signed in before the update is still signed in, and found again by its server and username', () => {
  const path = join(dir, 'media-sync.db');
  db = openDatabase(path);
  db.prepare(
    `INSERT INTO accounts (id, base_url, username, plan, created_at) VALUES ('old', ?, 'demo', 'free', 1)`,
  ).run(BASE);
  beforeKeptAccounts(db);
  db.close();

  db = openDatabase(path);
  const accounts = new AccountStore(db, () => 2);
  expect(accounts.list()).toEqual([
    { id: 'old', baseUrl: BASE, remoteId: null, username: 'demo', plan: 'free', createdAt: 1, signedOutAt: null },
  ]);
  // the next sign-in to it: the same row, which from then on knows the service's id
  expect(accounts.find(BASE, { id: 'acc-7', username: 'demo' })?.id).toBe('old');
  accounts.update('old', { remote: { id: 'acc-7', username: 'demo' } });
  accounts.setSignedOut('old', 5);
  expect(accounts.list()).toEqual([]);
  // signed out, it is still found; another user of the same server is another account
  expect(accounts.find(BASE, { id: 'acc-7', username: 'demo-renamed' })?.signedOutAt).toBe(5);
  expect(accounts.find(BASE, { id: 'acc-8', username: 'demo' })).toBeUndefined();
});
