import { afterEach, describe, expect, it } from 'vitest';
import { Emitter } from '../../../src-main/common/disposable.js';
import type { Engine } from '../../../src-main/core/engine.js';
import { whenDoneTransition, type WhenDoneState } from '../../../src-main/core/when-done-transition.js';
import { WhenDoneRunner } from '../../../src-main/core/when-done-runner.js';
import { commandPowerActions } from '../../../src-main/system/power-actions.js';
import type { UploadItem } from '../../../src-shared/model/upload-state.js';
import { FakeClock, flushMicrotasks } from '../../helpers/fake-clock.js';
import { memoryLog } from '../../helpers/memory-log.js';

describe('whenDoneTransition', () => {
  const look = (done: boolean, now: number) =>
    ({ type: 'look', done, now, wallNow: now + 1_000, countdownMs: 60 }) as const;

  it('counts down once the queue is done, runs at the deadline, and clears the choice once finished', () => {
    let state: WhenDoneState = whenDoneTransition({ kind: 'idle' }, { type: 'choose', action: 'sleep' });
    expect(state).toEqual({ kind: 'armed', action: 'sleep' });
    expect(whenDoneTransition(state, look(false, 0))).toBe(state);
    state = whenDoneTransition(state, look(true, 10));
    expect(state).toEqual({ kind: 'countingDown', action: 'sleep', deadline: 70, endsAt: 1_070 });
    expect(whenDoneTransition(state, look(true, 69))).toBe(state);
    state = whenDoneTransition(state, look(true, 70));
    expect(state).toEqual({ kind: 'running', action: 'sleep' });
    // too late to take back
    expect(whenDoneTransition(state, { type: 'choose', action: null })).toBe(state);
    expect(whenDoneTransition(state, { type: 'finished' })).toEqual({ kind: 'idle' });
  });

  it('new work stops the countdown; another choice starts it over; nothing cancels it', () => {
    const counting: WhenDoneState = { kind: 'countingDown', action: 'shutdown', deadline: 70, endsAt: 1_070 };
    expect(whenDoneTransition(counting, look(false, 20))).toEqual({ kind: 'armed', action: 'shutdown' });
    expect(whenDoneTransition(counting, { type: 'choose', action: 'quit' })).toEqual({ kind: 'armed', action: 'quit' });
    expect(whenDoneTransition(counting, { type: 'choose', action: 'shutdown' })).toBe(counting);
    expect(whenDoneTransition(counting, { type: 'choose', action: null })).toEqual({ kind: 'idle' });
  });
});

/** The parts of the engine the runner looks at: how many uploads are not final, and whether a watched file settles. */
function fakeEngine() {
  const changed = new Emitter<UploadItem>();
  const engine = {
    unfinished: 0,
    busy: false,
    queue: { onDidChangeItem: changed.event },
    uploads: { count: () => engine.unfinished },
    sync: {
      get busy() {
        return engine.busy;
      },
    },
    /** an upload changed state: the runner looks again at once */
    change: () => changed.fire({} as UploadItem),
  };
  return engine;
}

describe('WhenDoneRunner on an injected clock', () => {
  const runners: WhenDoneRunner[] = [];
  afterEach(() => runners.splice(0).forEach((runner) => runner.dispose()));

  function setUp() {
    const clock = new FakeClock();
    const engine = fakeEngine();
    const calls: string[] = [];
    const log = memoryLog();
    let refuse = false;
    const runner = new WhenDoneRunner({
      engine: engine as unknown as Pick<Engine, 'queue' | 'uploads' | 'sync'>,
      clock,
      log,
      power: {
        sleep: async () => {
          calls.push('sleep');
          if (refuse) throw new Error('Interactive authentication required.');
        },
        shutDown: async () => void calls.push('shutdown'),
      },
      quit: () => calls.push('quit'),
    });
    runners.push(runner);
    return { clock, engine, calls, log, runner, refuse: () => (refuse = true) };
  }

  it('runs the action 60 s after the queue is done, once, and then does nothing again', async () => {
    const { clock, engine, calls, runner } = setUp();
    engine.unfinished = 2;
    runner.choose('sleep');
    expect(runner.view()).toEqual({ action: 'sleep', countdownEndsAt: null });
    await clock.advance(5_000);
    expect(calls).toEqual([]);

    engine.unfinished = 0;
    engine.change();
    expect(runner.view()).toEqual({ action: 'sleep', countdownEndsAt: clock.wall() + 60_000 });
    await clock.advance(59_000);
    expect(calls).toEqual([]);
    await clock.advance(1_000);
    await flushMicrotasks();
    expect(calls).toEqual(['sleep']);
    expect(runner.view()).toBeNull();

    // for this run of the queue only: the next one ends without it
    engine.unfinished = 1;
    engine.change();
    engine.unfinished = 0;
    engine.change();
    await clock.advance(120_000);
    expect(calls).toEqual(['sleep']);
  });

  it('a new file stops the countdown, and the action waits for it with a whole countdown again', async () => {
    const { clock, engine, calls, runner } = setUp();
    runner.choose('shutdown');
    expect(runner.view()!.countdownEndsAt).not.toBeNull();
    await clock.advance(50_000);
    engine.unfinished = 1;
    engine.change();
    expect(runner.view()).toEqual({ action: 'shutdown', countdownEndsAt: null });
    await clock.advance(30_000);
    expect(calls).toEqual([]);

    engine.unfinished = 0;
    engine.change();
    await clock.advance(59_000);
    expect(calls).toEqual([]);
    await clock.advance(1_000);
    await flushMicrotasks();
    expect(calls).toEqual(['shutdown']);
  });

  it('a file still settling in a watched folder counts as work, found within a second without an event', async () => {
    const { clock, engine, calls, runner } = setUp();
    runner.choose('quit');
    await clock.advance(10_000);
    engine.busy = true;
    await clock.advance(1_000);
    expect(runner.view()!.countdownEndsAt).toBeNull();
    engine.busy = false;
    await clock.advance(1_000);
    expect(runner.view()!.countdownEndsAt).not.toBeNull();
    await clock.advance(60_000);
    await flushMicrotasks();
    expect(calls).toEqual(['quit']);
  });

  it('Cancel stops the countdown and clears the choice; nothing runs', async () => {
    const { clock, calls, runner, log } = setUp();
    runner.choose('sleep');
    await clock.advance(30_000);
    runner.choose(null);
    expect(runner.view()).toBeNull();
    await clock.advance(120_000);
    expect(calls).toEqual([]);
    expect(log.lines).toContain('INFO When done: the countdown was cancelled.');
  });

  it('an action the OS refuses is logged, and the choice is cleared all the same', async () => {
    const { clock, calls, runner, log, refuse } = setUp();
    refuse();
    runner.choose('sleep');
    await clock.advance(60_000);
    await flushMicrotasks();
    expect(calls).toEqual(['sleep']);
    expect(runner.view()).toBeNull();
    expect(log.lines.at(-1)).toMatch(
      /^ERROR When done: the queue is done, but the computer did not sleep\..*authentication/,
    );
  });
});

describe('the power actions of macOS and Windows', () => {
  it('are the commands a person would type, without a shell', async () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const ran: string[][] = [];
      const actions = commandPowerActions(platform, async (file, args) => void ran.push([file, ...args]));
      await actions.sleep();
      await actions.shutDown();
      expect(ran).toEqual(
        platform === 'darwin'
          ? [
              ['pmset', 'sleepnow'],
              ['osascript', '-e', 'tell application "System Events" to shut down'],
            ]
          : [
              ['rundll32.exe', 'powrprof.dll,SetSuspendState', '0,1,0'],
              ['shutdown', '/s', '/t', '0'],
            ],
      );
    }
  });
});
