import Database from 'better-sqlite3';
import { mkdir, open, readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../../helpers/cli-sandbox.js';

const SETTINGS = `${JSON.stringify({ settings: { concurrency: 2 } })}\n`;

/**
 * A damaged database, as a disk error, a crash of the file system or a tool
 * that wrote over it leaves one: every command says in words which file and
 * what to do (no stack trace); `media-sync repair` keeps the damaged file
 * beside a fresh database with what could be read of it, and never touches
 * the settings or the tokens.
 */
describe('a damaged database and media-sync repair', { timeout: 120_000 }, () => {
  const sandbox = cliSandbox('media-sync-repair-');
  const { cli } = sandbox;
  const database = () => join(sandbox.home.path, 'media-sync.db');

  /** An account, a watched folder whose two files are uploaded, and settings of the person's. */
  async function aPersonsDataFolder(): Promise<{ tokenFile: string }> {
    expect((await cli(['login', '--base-url', sandbox.server.baseUrl], sandbox.server.token)).code).toBe(0);
    const clips = join(sandbox.files.path, 'clips');
    await mkdir(clips);
    await writeFile(join(clips, 'a.mp4'), 'the first clip');
    await writeFile(join(clips, 'b.mp4'), 'the second clip');
    expect((await cli(['watch', 'clips', '--once'])).code).toBe(0);
    await writeFile(join(sandbox.home.path, 'settings.json'), SETTINGS);
    const [tokenFile] = await readdir(join(sandbox.home.path, 'credentials'));
    return { tokenFile: join(sandbox.home.path, 'credentials', tokenFile!) };
  }

  /** Writes garbage over the page where `table` starts (its only page, in a database this small). */
  async function breakTable(table: string): Promise<void> {
    const db = new Database(database(), { readonly: true });
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const { rootpage } = db.prepare('SELECT rootpage FROM sqlite_schema WHERE name = ?').get(table) as {
      rootpage: number;
    };
    db.close();
    const file = await open(database(), 'r+');
    await file.write(Buffer.alloc(pageSize, 0xa5), 0, pageSize, (rootpage - 1) * pageSize);
    await file.close();
  }

  it.each([
    ['garbage over its header', 'file is not a database', (path: string) => writeGarbage(path, 0, 100)],
    ['cut short', 'database disk image is malformed', (path: string) => cutInHalf(path)],
  ])(
    '%s: every command says so in words; repair keeps it aside, and the settings and token',
    async (_name, said, damage) => {
      const { tokenFile } = await aPersonsDataFolder();
      const token = await readFile(tokenFile, 'utf8');
      await damage(database());
      const damagedBytes = await readFile(database());

      for (const command of [['folders'], ['queue', 'ls'], ['account']]) {
        const refused = await cli(command);
        expect(refused.code, command.join(' ')).toBe(1);
        expect(refused.stderr).toContain(`Error: The database ${database()} is damaged (${said}).`);
        expect(refused.stderr).toContain('run: media-sync repair');
        expect(refused.stderr).not.toMatch(/\n\s+at /);
      }
      // nothing was changed by asking: only the person's repair sets the file aside
      expect(await readFile(database())).toEqual(damagedBytes);

      const repaired = await cli(['repair']);
      expect(repaired.code).toBe(0);
      const copy = /Kept the damaged database as (\S+) and started a fresh one\./.exec(repaired.stdout)?.[1];
      expect(copy).toMatch(new RegExp(`^${database()}\\.damaged-`));
      expect(await readFile(copy!)).toEqual(damagedBytes);
      expect(repaired.stdout).toContain('Your settings and tokens were not touched.');
      expect(await readFile(join(sandbox.home.path, 'settings.json'), 'utf8')).toBe(SETTINGS);
      expect(await readFile(tokenFile, 'utf8')).toBe(token);
      // the fresh database opens; asked again, there is nothing to repair
      expect((await cli(['queue', 'ls'])).code).toBe(0);
      expect(await cli(['repair'])).toMatchObject({
        code: 0,
        stdout: `The database ${database()} is not damaged: nothing to repair.\n`,
      });
    },
  );

  it('keeps the account and the watched folder when only the queue cannot be read', async () => {
    const { tokenFile } = await aPersonsDataFolder();
    await breakTable('upload_items');
    expect((await cli(['folders'])).stderr).toContain(`The database ${database()} is damaged`);

    const repaired = await cli(['repair']);
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).toContain(
      "It has the accounts (1), the watched folders (1), the files in the watched folders' index (2)",
    );
    expect(repaired.stdout).toContain('Could not read the uploads in the queue.');
    // the account answers with its kept token; the folder is still watched, its index whole
    const account = await cli(['account', '--json']);
    expect(account.code).toBe(0);
    expect(JSON.parse(account.stdout)).toMatchObject({ username: 'demo' });
    const folders = await cli(['folders', '--json']);
    expect(JSON.parse(folders.stdout)).toMatchObject([{ path: join(sandbox.files.path, 'clips') }]);
    expect(await stat(tokenFile)).toBeTruthy();
    // nothing is sent twice: the index says both files are on the service
    const before = sandbox.server.server.uploadLog.entries().length;
    expect((await cli(['watch', 'clips', '--once'])).code).toBe(0);
    expect(sandbox.server.server.uploadLog.entries().length).toBe(before);
  });

  it('sets the watched folders to skip files already on the service when their index and the queue are lost', async () => {
    await aPersonsDataFolder();
    // what a folder sent is known from its index, and from the queue until finished items leave it
    await breakTable('sync_index');
    await breakTable('upload_items');
    const repaired = await cli(['repair']);
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).toContain(
      "Could not read the files in the watched folders' index and the uploads in the queue.",
    );
    expect(repaired.stdout).toContain('they now skip files already on the service');
    const before = sandbox.server.server.uploadLog.entries().length;
    expect((await cli(['watch', 'clips', '--once'])).code).toBe(0);
    // the two files are on the service by name and size: neither is sent again
    expect(sandbox.server.server.uploadLog.entries().length).toBe(before);
  });
});

async function writeGarbage(path: string, at: number, length: number): Promise<void> {
  const file = await open(path, 'r+');
  await file.write(Buffer.alloc(length, 0x5a), 0, length, at);
  await file.close();
}

async function cutInHalf(path: string): Promise<void> {
  await truncate(path, Math.floor((await stat(path)).size / 2));
}
