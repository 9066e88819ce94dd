import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  nodeFileProbe,
  settleWindowFor,
  SettleTracker,
  type FileProbe,
  type ProbeOpen,
  type ProbeStat,
  type SettledFile,
} from '../../../src-main/sync/stability.js';
import { FakeClock, flushMicrotasks } from '../../helpers/fake-clock.js';

const GIB = 1024 ** 3;

/** An in-memory file table; every answer goes through a macrotask so checks really overlap. */
class FakeProbe implements FileProbe {
  readonly files = new Map<string, { size: number; mtimeMs: number; locked?: boolean; folder?: boolean }>();
  inFlight = 0;
  maxInFlight = 0;
  stats = 0;
  /** When set, open() waits for it, so a test can act while a check is under way. */
  openGate: Promise<void> | undefined;

  write(absPath: string, size: number, mtimeMs: number): void {
    this.files.set(absPath, { size, mtimeMs });
  }

  async stat(absPath: string): Promise<ProbeStat> {
    this.stats += 1;
    return this.answer(() => {
      const file = this.files.get(absPath);
      if (file === undefined) return { kind: 'missing' };
      return file.folder ? { kind: 'other' } : { kind: 'file', size: file.size, mtimeMs: file.mtimeMs };
    });
  }

  async open(absPath: string): Promise<ProbeOpen> {
    if (this.openGate) await this.openGate;
    return this.answer(() => {
      const file = this.files.get(absPath);
      if (file === undefined) return 'missing';
      return file.locked ? 'locked' : 'ok';
    });
  }

  private async answer<T>(read: () => T): Promise<T> {
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await flushMicrotasks();
      return read();
    } finally {
      this.inFlight -= 1;
    }
  }
}

function setup(options: { settleMs?: number; concurrency?: number } = {}) {
  const clock = new FakeClock();
  const probe = new FakeProbe();
  const tracker = new SettleTracker({ clock, probe, settleMs: options.settleMs ?? 3_000, ...options });
  const settled: SettledFile[] = [];
  const vanished: string[] = [];
  const errors: Error[] = [];
  tracker.onDidSettle((file) => settled.push(file));
  tracker.onDidVanish((relPath) => vanished.push(relPath));
  tracker.onDidError((error) => errors.push(error));
  /** Advances in steps so that sweeps which span several macrotasks finish between steps. */
  const advance = async (ms: number, step = 50) => {
    for (let done = 0; done < ms; done += step) await clock.advance(Math.min(step, ms - done));
  };
  return { clock, probe, tracker, settled, vanished, errors, advance };
}

describe('settleWindowFor', () => {
  it('adds a second per GiB to the base window, up to 15 s', () => {
    expect(settleWindowFor(0, 3_000)).toBe(3_000);
    expect(settleWindowFor(10 * 1024 * 1024, 3_000)).toBe(3_010);
    expect(settleWindowFor(GIB, 3_000)).toBe(4_000);
    expect(settleWindowFor(5 * GIB, 3_000)).toBe(8_000);
    expect(settleWindowFor(40 * GIB, 3_000)).toBe(15_000);
    expect(settleWindowFor(GIB, 300)).toBe(1_300);
  });

  it('never shortens a base window that is already longer than the cap', () => {
    expect(settleWindowFor(100 * GIB, 20_000)).toBe(20_000);
  });
});

describe('SettleTracker', () => {
  it('reports a file once its size and mtime held still for the settle window, and not before', async () => {
    const { probe, tracker, settled, advance } = setup();
    probe.write('/w/clip.mp4', 1_000, 111);
    tracker.track('clip.mp4', '/w/clip.mp4', 'scan');
    await advance(3_000);
    expect(settled).toEqual([]);
    await advance(1_000);
    expect(settled).toEqual([
      { absPath: '/w/clip.mp4', relPath: 'clip.mp4', size: 1_000, mtimeMs: 111, reason: 'scan' },
    ]);
    await advance(10_000);
    expect(settled).toHaveLength(1);
    expect(tracker.pendingCount).toBe(0);
  });

  it('waits for a file that keeps growing and reports it once, with its final size, after the writer stops', async () => {
    const { clock, probe, tracker, settled, advance } = setup();
    probe.write('/w/big.mov', 0, 0);
    tracker.track('big.mov', '/w/big.mov', 'change');
    for (let second = 1; second <= 20; second++) {
      await advance(1_000);
      probe.write('/w/big.mov', second * 1_000_000, clock.monotonic());
    }
    expect(settled).toEqual([]);
    await advance(2_900);
    expect(settled).toEqual([]);
    // A sweep to see the last write, the window, and the sweep that confirms it.
    await advance(2_100);
    expect(settled).toEqual([expect.objectContaining({ relPath: 'big.mov', size: 20_000_000 })]);
  });

  it('restarts the wait on a change event even when size and mtime did not move (coarse mtime, same-size rewrite)', async () => {
    const { probe, tracker, settled, advance } = setup();
    probe.write('/w/a.mp4', 10, 1);
    tracker.track('a.mp4', '/w/a.mp4', 'change');
    await advance(2_500);
    tracker.track('a.mp4', '/w/a.mp4', 'change');
    await advance(1_500);
    expect(settled).toEqual([]);
    await advance(2_500);
    expect(settled).toHaveLength(1);
  });

  it('does not restart the wait when a folder scan merely sees a pending file, but reports it as scanned', async () => {
    const { probe, tracker, settled, advance } = setup();
    probe.write('/w/a.mp4', 10, 1);
    tracker.track('a.mp4', '/w/a.mp4', 'change');
    await advance(2_500);
    tracker.track('a.mp4', '/w/a.mp4', 'scan');
    await advance(1_500);
    expect(settled).toEqual([expect.objectContaining({ relPath: 'a.mp4', reason: 'scan' })]);
  });

  it('never reports a file deleted before it settled, and says it vanished', async () => {
    const { probe, tracker, settled, vanished, advance } = setup();
    probe.write('/w/gone.mp4', 10, 1);
    tracker.track('gone.mp4', '/w/gone.mp4', 'change');
    await advance(1_500);
    probe.files.delete('/w/gone.mp4');
    await advance(10_000);
    expect(settled).toEqual([]);
    expect(vanished).toEqual(['gone.mp4']);
    expect(tracker.pendingCount).toBe(0);
  });

  it('drops a path that turns out to be a folder without reporting anything', async () => {
    const { probe, tracker, settled, vanished, advance } = setup();
    probe.files.set('/w/album', { size: 4096, mtimeMs: 1, folder: true });
    tracker.track('album', '/w/album', 'change');
    await advance(10_000);
    expect({ settled, vanished, pending: tracker.pendingCount }).toEqual({ settled: [], vanished: [], pending: 0 });
  });

  it('holds back a file that cannot be opened yet (Windows locks a file being written) until it can', async () => {
    const { probe, tracker, settled, advance } = setup();
    probe.files.set('/w/copying.mp4', { size: 500, mtimeMs: 5, locked: true });
    tracker.track('copying.mp4', '/w/copying.mp4', 'scan');
    await advance(20_000);
    expect(settled).toEqual([]);
    probe.files.set('/w/copying.mp4', { size: 500, mtimeMs: 5 });
    // The retry backs off, but never beyond a minute.
    await advance(61_000, 250);
    expect(settled).toEqual([expect.objectContaining({ relPath: 'copying.mp4', size: 500 })]);
  });

  it('gives a large file a longer window than a small one', async () => {
    const { probe, tracker, settled, advance } = setup();
    probe.write('/w/small.jpg', 1_000, 1);
    probe.write('/w/huge.mov', 5 * GIB, 1);
    tracker.track('small.jpg', '/w/small.jpg', 'scan');
    tracker.track('huge.mov', '/w/huge.mov', 'scan');
    await advance(4_000);
    expect(settled.map((file) => file.relPath)).toEqual(['small.jpg']);
    await advance(3_500);
    expect(settled.map((file) => file.relPath)).toEqual(['small.jpg']);
    await advance(2_000);
    expect(settled.map((file) => file.relPath)).toEqual(['small.jpg', 'huge.mov']);
  });

  it('reports a file again when it changes after it was reported and settles again', async () => {
    const { probe, tracker, settled, advance } = setup();
    probe.write('/w/a.mp4', 10, 1);
    tracker.track('a.mp4', '/w/a.mp4', 'scan');
    await advance(4_000);
    probe.write('/w/a.mp4', 20, 2);
    tracker.track('a.mp4', '/w/a.mp4', 'change');
    await advance(4_000);
    expect(settled.map((file) => file.size)).toEqual([10, 20]);
  });

  it('does not report a file that changed while its final open check was under way', async () => {
    const { probe, tracker, settled, advance } = setup();
    probe.write('/w/a.mp4', 10, 1);
    tracker.track('a.mp4', '/w/a.mp4', 'scan');
    let release!: () => void;
    probe.openGate = new Promise((resolve) => (release = resolve));
    await advance(3_750);
    expect(probe.inFlight).toBe(0);
    tracker.track('a.mp4', '/w/a.mp4', 'change');
    release();
    probe.openGate = undefined;
    await advance(100);
    expect(settled).toEqual([]);
    await advance(4_000);
    expect(settled).toHaveLength(1);
  });

  it('checks 2,000 new files with at most `concurrency` stats or opens in flight, reporting each exactly once', async () => {
    const { probe, tracker, settled, advance } = setup({ settleMs: 300, concurrency: 16 });
    for (let i = 0; i < 2_000; i++) {
      probe.write(`/w/f${i}.jpg`, i, 1);
      tracker.track(`f${i}.jpg`, `/w/f${i}.jpg`, 'change');
    }
    for (let round = 0; round < 400 && settled.length < 2_000; round++) await advance(25, 25);
    expect(settled).toHaveLength(2_000);
    expect(new Set(settled.map((file) => file.relPath)).size).toBe(2_000);
    expect(probe.maxInFlight).toBeGreaterThan(1);
    expect(probe.maxInFlight).toBeLessThanOrEqual(16);
  });

  it('keeps no timer running while nothing is pending, and starts one again for the next file', async () => {
    const { clock, probe, tracker, settled, advance } = setup();
    expect(clock.pendingSleeps).toBe(0);
    probe.write('/w/a.mp4', 10, 1);
    tracker.track('a.mp4', '/w/a.mp4', 'scan');
    expect(clock.pendingSleeps).toBe(1);
    await advance(4_000);
    expect(settled).toHaveLength(1);
    expect(clock.pendingSleeps).toBe(0);
    const statsWhileIdle = probe.stats;
    await advance(60_000, 1_000);
    expect(probe.stats).toBe(statsWhileIdle);
    tracker.track('a.mp4', '/w/a.mp4', 'scan');
    await advance(4_000);
    expect(settled).toHaveLength(2);
  });

  it('reports nothing after dispose', async () => {
    const { clock, probe, tracker, settled, advance } = setup();
    probe.write('/w/a.mp4', 10, 1);
    tracker.track('a.mp4', '/w/a.mp4', 'scan');
    await advance(1_000);
    tracker.dispose();
    await advance(10_000);
    expect(settled).toEqual([]);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('reports a stat failure other than a missing file as an error and stops asking about that path', async () => {
    const { probe, tracker, settled, errors, advance } = setup();
    probe.stat = () => Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }));
    tracker.track('secret.mp4', '/w/secret.mp4', 'scan');
    await advance(10_000);
    expect(settled).toEqual([]);
    expect(errors.map((error) => error.message)).toEqual(['EACCES: permission denied']);
    expect(tracker.pendingCount).toBe(0);
  });
});

describe('nodeFileProbe', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('tells a readable file from a folder and from nothing at all', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'media-sync-probe-'));
    const file = path.join(dir, 'a.mp4');
    await writeFile(file, 'hello');
    expect(await nodeFileProbe.stat(file)).toMatchObject({ kind: 'file', size: 5 });
    expect(await nodeFileProbe.open(file)).toBe('ok');
    expect(await nodeFileProbe.stat(dir)).toEqual({ kind: 'other' });
    expect(await nodeFileProbe.stat(path.join(dir, 'nope.mp4'))).toEqual({ kind: 'missing' });
    expect(await nodeFileProbe.open(path.join(dir, 'nope.mp4'))).toBe('missing');
    expect(await nodeFileProbe.stat(path.join(file, 'below-a-file'))).toEqual({ kind: 'missing' });
  });
});
