import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore, CoreEvent } from '../../../src-main/core/app-core.js';
import { systemClock, type Clock } from '../../../src-main/common/clock.js';
import { Emitter } from '../../../src-main/common/disposable.js';
import { Engine } from '../../../src-main/core/engine.js';
import type { PowerSourcePort } from '../../../src-main/core/ports.js';
import type { IpcCommandName, IpcRequest } from '../../../src-shared/ipc/ipc-contract.js';
import type { ScheduleWindow } from '../../../src-shared/model/upload-schedule.js';
import { addFileToQueue, callCore, createAppCore } from '../../helpers/app-core-fixture.js';
import { tempDir, writeRandomFile } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const ALL_DAYS: ScheduleWindow['days'] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/**
 * The system clock with its wall time moved (`nearMinuteEnd`) so that it
 * reads 57 s past a minute: a schedule window (minutes, HH:MM) then ends 3 s
 * later, in real time, with real timers. Only AppCore (and so the schedule)
 * sees it.
 */
function movableClock(): Clock & { nearMinuteEnd(): void; jump(ms: number): void } {
  let offset = 0;
  return {
    ...systemClock,
    wall: () => Date.now() + offset,
    nearMinuteEnd: () => void (offset = (57_000 - (Date.now() % 60_000) + 60_000) % 60_000),
    /** the wall clock moves on while timers do not: a suspend */
    jump: (ms) => void (offset += ms),
  };
}

/** "HH:MM" in UTC of a wall time. */
function hhmm(ms: number): string {
  return new Date(ms).toISOString().slice(11, 16);
}

class FakePowerSource implements PowerSourcePort {
  private battery = false;
  private readonly emitter = new Emitter<boolean>();
  readonly onDidChange = this.emitter.event;
  onBattery(): boolean {
    return this.battery;
  }
  set(battery: boolean): void {
    this.battery = battery;
    this.emitter.fire(battery);
  }
}

describe('the upload schedule and the battery against the reference server', () => {
  let server: TestServer;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let files: Awaited<ReturnType<typeof tempDir>>;
  let engine: Engine;
  let core: AppCore;
  let clock: ReturnType<typeof movableClock>;
  let power: FakePowerSource;
  let events: CoreEvent[];
  let accountId: string;

  beforeEach(async () => {
    server = await startTestServer({ conversions: false });
    data = await tempDir('media-sync-schedule-data-');
    files = await tempDir('media-sync-schedule-files-');
    engine = await Engine.open({ dataDir: data.path });
    clock = movableClock();
    power = new FakePowerSource();
    core = createAppCore(engine, data.path, { clock, timeZone: () => 'UTC', power });
    events = [];
    core.onDidEmit((event) => events.push(event));
    await core.start();
    accountId = (await callCore(core, 'account:signIn', { baseUrl: server.baseUrl, token: server.token })).id;
  });

  afterEach(async () => {
    await core.dispose();
    await engine.close();
    await server.close();
    await data.remove();
    await files.remove();
  });

  const call = <N extends IpcCommandName>(name: N, request: IpcRequest<N>) => callCore(core, name, request);
  const addFile = (name: string) => addFileToQueue(core, accountId, files.path, name);

  /** A window over this minute (wall clock of `clock`), ending at the next one, about 3 s from now. */
  function windowEndingSoon(action: ScheduleWindow['action']): { window: ScheduleWindow; edge: number } {
    // moved here, not at setup, so a slow setup cannot eat the 3 s
    clock.nearMinuteEnd();
    const now = clock.wall();
    const edge = now - (now % 60_000) + 60_000;
    return { window: { days: ALL_DAYS, from: hhmm(now), to: hhmm(edge), action }, edge };
  }

  const status = () => call('uploads:status', {});
  const itemState = (id: number) => engine.queue.get(id)!.state.kind;
  const done = (id: number) => waitFor(() => (itemState(id) === 'done' ? true : undefined), 15_000, `upload #${id}`);

  it('a pause window holds the queue with its reason, and lets it go at its edge without a restart', async () => {
    const { window, edge } = windowEndingSoon({ kind: 'pause' });
    await call('settings:update', { schedule: [window] });
    expect(await status()).toMatchObject({
      pause: null,
      hold: { reason: 'schedule', until: edge },
    });
    expect(events).toContainEqual({
      name: 'uploads:statusChanged',
      payload: expect.objectContaining({ hold: { reason: 'schedule', until: edge } }),
    });

    const item = await addFile('held.mp4');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(itemState(item.id)).toBe('queued');
    expect(clock.wall()).toBeLessThan(edge);

    await done(item.id);
    // released by the edge, not before it
    expect(clock.wall()).toBeGreaterThanOrEqual(edge);
    expect(await status()).toMatchObject({ pause: null, hold: null });
    expect(events).toContainEqual({
      name: 'uploads:statusChanged',
      payload: expect.objectContaining({ hold: null }),
    });
  });

  it("keeps the person's pause apart: resume does not lift the schedule, and the schedule's end does not resume", async () => {
    const { window, edge } = windowEndingSoon({ kind: 'pause' });
    await call('settings:update', { schedule: [window] });
    const item = await addFile('mine.mp4');

    // resuming while nothing of the person's is paused leaves the schedule's hold
    expect(await call('uploads:resumeAll', {})).toMatchObject({ pause: null, hold: { reason: 'schedule' } });
    expect(await call('uploads:pauseAll', { until: null })).toMatchObject({
      pause: { until: null },
      hold: { reason: 'schedule', until: edge },
    });

    await waitFor(async () => ((await status()).hold === null ? true : undefined), 10_000, 'the window to end');
    expect(await status()).toMatchObject({ pause: { until: null }, hold: null });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(itemState(item.id)).toBe('queued');

    await call('uploads:resumeAll', {});
    await done(item.id);
  });

  it('a window starting mid-upload stops it with its chunks kept; after a suspend past its end, a wake lets it go on', async () => {
    await call('settings:update', { chunkSizeBytes: 1_000_000, bandwidthBytesPerSecond: 1_000_000 });
    const path = join(files.path, 'long.mp4');
    await writeRandomFile(path, 8_000_000, 7);
    const [item] = await call('uploads:addPaths', { accountId, paths: [path] });
    await waitFor(() => (itemState(item!.id) === 'uploading' ? true : undefined), 5_000, 'the upload to start');

    // 8 s of upload at 1 MB/s; the window starts in about 3 s, for one minute
    clock.nearMinuteEnd();
    const now = clock.wall();
    const start = now - (now % 60_000) + 60_000;
    const end = start + 60_000;
    await call('settings:update', {
      schedule: [{ days: ALL_DAYS, from: hhmm(start), to: hhmm(end), action: { kind: 'pause' } }],
    });
    expect((await status()).hold).toBeNull();

    await waitFor(async () => ((await status()).hold ? true : undefined), 10_000, 'the window to start');
    expect((await status()).hold).toEqual({ reason: 'schedule', until: end });
    await waitFor(() => (itemState(item!.id) === 'queued' ? true : undefined), 5_000, 'the upload to stop');
    const held = engine.queue.get(item!.id)!;
    expect(held.ackedChunks.length).toBeGreaterThan(0);
    expect(held.ackedChunks.length).toBeLessThan(8);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(itemState(item!.id)).toBe('queued');

    // asleep through the window's end: no timer ran; the resume wakes the engine
    clock.jump(60_000);
    engine.wake();
    expect((await status()).hold).toBeNull();
    await done(item!.id);
    const finished = engine.queue.get(item!.id)!;
    expect(finished.dzuuid).toBe(held.dzuuid);
    expect(finished.restarts).toBe(0);
  });

  it("a limit window's speed replaces the Bandwidth setting until its edge", async () => {
    const { window } = windowEndingSoon({ kind: 'limit', bytesPerSecond: 2_000_000 });
    await call('settings:update', { bandwidthBytesPerSecond: 5_000_000, schedule: [window] });
    expect(await status()).toMatchObject({ hold: null, bandwidthBytesPerSecond: 2_000_000, bandwidthBy: 'schedule' });
    expect(engine.limiter.limit).toBe(2_000_000);
    await waitFor(
      async () => ((await status()).bandwidthBy === 'schedule' ? undefined : true),
      10_000,
      'the window to end',
    );
    expect(await status()).toMatchObject({ bandwidthBytesPerSecond: 5_000_000, bandwidthBy: 'setting' });
    // an empty schedule: the setting alone
    await call('settings:update', { schedule: [] });
    expect(engine.limiter.limit).toBe(5_000_000);
  });

  it('"Pause while on battery" holds the queue while on battery, with its reason, and only when switched on', async () => {
    power.set(true);
    expect((await status()).hold).toBeNull();
    await call('settings:update', { pauseOnBattery: true });
    expect((await status()).hold).toEqual({ reason: 'battery' });

    const item = await addFile('unplugged.mp4');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(itemState(item.id)).toBe('queued');

    power.set(false);
    await done(item.id);
    expect((await status()).hold).toBeNull();
    expect(events).toContainEqual({
      name: 'uploads:statusChanged',
      payload: expect.objectContaining({ hold: { reason: 'battery' } }),
    });
  });
});
