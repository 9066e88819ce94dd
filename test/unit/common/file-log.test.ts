import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileLog, type FileLog } from '../../../src-main/common/file-log.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const CANARY = 'canary-Qx7/Zp+9w=tok';

describe('createFileLog', () => {
  let root: string;
  let dir: string;
  const logs: FileLog[] = [];
  const open = (options: Partial<Parameters<typeof createFileLog>[0]> = {}) => {
    const log = createFileLog({ dir, ...options });
    logs.push(log);
    return log;
  };
  const lines = async (name = 'main.log') => (await readFile(join(dir, name), 'utf8')).split('\n').filter(Boolean);

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'file-log-'));
    dir = join(root, 'logs');
  });
  afterEach(async () => {
    for (const log of logs.splice(0)) await log.close();
    await rm(root, { recursive: true, force: true });
  });

  it('writes one line per entry: ISO time, level, message; an error with its stack and causes on the same line', async () => {
    const clock = new FakeClock({ wallStart: Date.UTC(2025, 4, 1, 10, 0, 0) });
    const log = open({ clock });
    log.info('Media Sync started.');
    log.warn('Watching /videos: the folder\nwas removed.');
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    log.error('Sign-in failed.', new Error('The service could not be reached.', { cause }));
    log.error('A handler failed.', { status: 500 });

    const written = await lines();
    expect(written).toHaveLength(4);
    expect(written[0]).toBe('2025-05-01T10:00:00.000Z INFO  Media Sync started.');
    expect(written[1]).toBe('2025-05-01T10:00:00.000Z WARN  Watching /videos: the folder\\nwas removed.');
    expect(written[2]).toMatch(
      /^2025-05-01T10:00:00\.000Z ERROR Sign-in failed\. \(Error: The service could not be reached\.\\n {4}at .*file-log\.test\.ts.* caused by \(Error: connect ECONNREFUSED 127\.0\.0\.1:9 \[ECONNREFUSED\]\\n {4}at /,
    );
    expect(written[3]).toBe('2025-05-01T10:00:00.000Z ERROR A handler failed. ({"status":500})');
    expect(log.path).toBe(join(dir, 'main.log'));
    expect(await log.recent(2)).toEqual(written.slice(2));
  });

  it('writes no registered secret, in a message, an error, its stack or its causes, plain or URL-encoded', async () => {
    const log = open();
    log.addSecret(CANARY);
    log.info(`Signed in with ${CANARY} (${encodeURIComponent(CANARY)}).`);
    const inner = new Error(`the server echoed ${CANARY}`);
    log.error(`Request with ${CANARY} failed.`, new Error(`token ${CANARY} refused`, { cause: inner }));
    log.warn(`GET /account?access_token=${encodeURIComponent(CANARY)} {"token":"${CANARY}"}`);

    const text = await readFile(log.path, 'utf8');
    expect(text).not.toContain(CANARY);
    expect(text).not.toContain(encodeURIComponent(CANARY));
    expect(text).not.toContain('Qx7');
    expect(text).toContain('Signed in with [redacted] ([redacted]).');
    expect(text).toContain('Request with [redacted] failed. (Error: token [redacted] refused');
    expect(text).toContain('caused by (Error: the server echoed [redacted]');
    expect(text).toContain('GET /account?access_token=[redacted] {"token":"[redacted]"}');
  });

  it('cuts a secret registered after a line was written out of what recent() returns', async () => {
    const log = open();
    log.info(`typed ${CANARY}`);
    log.addSecret(CANARY);
    expect(await log.recent(10)).toEqual([expect.stringMatching(/INFO {2}typed \[redacted\]$/)]);
  });

  it('keeps its folder 0700 and its files 0600, and tightens a file that was readable by others', async () => {
    const log = open({ maxBytes: 200, keep: 2 });
    for (let i = 0; i < 6; i++) log.info(`entry ${i} ${'x'.repeat(60)}`);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    for (const name of await readdir(dir)) expect((await stat(join(dir, name))).mode & 0o777).toBe(0o600);
    await log.close();

    await chmod(join(dir, 'main.log'), 0o644);
    await chmod(dir, 0o755);
    open().info('again');
    expect((await stat(join(dir, 'main.log'))).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it('rotates by size: main.log, then main.1.log … main.<keep>.log, dropping the oldest', async () => {
    const log = open({ maxBytes: 250, keep: 2 });
    // each line is 24 (time) + 6 (level) + 72 + 1 = 103 bytes: two fit in a file, a third rotates it
    const entry = (i: number) => `entry ${String(i).padStart(2, '0')} ${'x'.repeat(63)}`;
    for (let i = 0; i < 9; i++) log.info(entry(i));

    expect((await readdir(dir)).sort()).toEqual(['main.1.log', 'main.2.log', 'main.log']);
    const tail = (text: string) => text.slice(31);
    expect((await lines('main.2.log')).map(tail)).toEqual([entry(4), entry(5)]);
    expect((await lines('main.1.log')).map(tail)).toEqual([entry(6), entry(7)]);
    expect((await lines('main.log')).map(tail)).toEqual([entry(8)]);
    for (const name of await readdir(dir)) expect((await stat(join(dir, name))).size).toBeLessThanOrEqual(250);
    expect((await log.recent(4)).map(tail)).toEqual([entry(5), entry(6), entry(7), entry(8)]);
    expect((await log.recent(100)).map(tail)).toEqual([4, 5, 6, 7, 8].map(entry));
  });

  it('appends to the file it finds after a restart and counts its size, so rotation happens at the same point', async () => {
    const entry = (i: number) => `entry ${i} ${'y'.repeat(64)}`;
    const first = open({ maxBytes: 350, keep: 1 });
    first.info(entry(1));
    first.info(entry(2));
    await first.close();

    const second = open({ maxBytes: 350, keep: 1 });
    second.info(entry(3));
    expect(await readdir(dir)).toEqual(['main.log']);
    second.info(entry(4));
    expect((await readdir(dir)).sort()).toEqual(['main.1.log', 'main.log']);
    expect((await lines('main.1.log')).map((line) => line.slice(31))).toEqual([entry(1), entry(2), entry(3)]);
    expect((await lines()).map((line) => line.slice(31))).toEqual([entry(4)]);
  });

  it('with keep 0, starts the file again instead of keeping rotated ones', async () => {
    const log = open({ maxBytes: 150, keep: 0 });
    log.info(`first ${'z'.repeat(80)}`);
    log.info(`second ${'z'.repeat(80)}`);
    expect(await readdir(dir)).toEqual(['main.log']);
    expect((await lines()).map((line) => line.slice(31))).toEqual([`second ${'z'.repeat(80)}`]);
  });

  it('cuts one huge entry to a bounded line', async () => {
    const log = open();
    log.info(`start ${'h'.repeat(100_000)}`);
    const [line] = await lines();
    expect(line!.length).toBeLessThan(20_000);
    expect(line).toContain('INFO  start hhh');
  });

  it('never throws when it cannot write, and writes again once it can, saying how many entries it dropped', async () => {
    // a directory where the log file should be: fails for root too, unlike permissions
    await mkdir(join(dir, 'main.log'), { recursive: true });
    const log = open();
    expect(() => log.info('lost')).not.toThrow();
    expect(() => log.error('lost too', new Error('boom'))).not.toThrow();
    await expect(log.recent(10)).resolves.toEqual([]);

    await rm(join(dir, 'main.log'), { recursive: true });
    log.info('written');
    expect((await lines()).map((line) => line.slice(25))).toEqual([
      `WARN  2 log entries could not be written before this one (EISDIR: illegal operation on a directory, open '${join(dir, 'main.log')}').`,
      'INFO  written',
    ]);
  });

  it('never throws when its folder cannot be made, and drops what is written after close', async () => {
    await writeFile(join(root, 'occupied'), 'a file, not a folder');
    const blocked = createFileLog({ dir: join(root, 'occupied', 'logs') });
    logs.push(blocked);
    expect(() => blocked.warn('nowhere to go')).not.toThrow();

    const log = open();
    log.info('before close');
    await log.close();
    expect(() => log.info('after close')).not.toThrow();
    expect((await lines()).map((line) => line.slice(31))).toEqual(['before close']);
  });

  it('ignores secrets too short to be a token, so ordinary words stay readable', async () => {
    const log = open();
    log.addSecret('upload');
    log.info('upload finished');
    expect((await lines())[0]).toMatch(/INFO {2}upload finished$/);
  });
});
