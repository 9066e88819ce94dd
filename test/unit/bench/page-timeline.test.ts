import { describe, expect, it } from 'vitest';
import { mainThreadMsAfterMarks } from '../../../bench/page-timeline.js';

const MAIN = { pid: 1, tid: 1 };
const mark = (ts: number, message = 'bench:progress') => ({
  ...MAIN,
  name: 'TimeStamp',
  ph: 'I',
  ts,
  args: { data: { message } },
});
const task = (ts: number, dur: number, tdur: number, thread = MAIN) => ({
  ...thread,
  name: 'ThreadControllerImpl::RunTask',
  ph: 'X',
  ts,
  dur,
  tdur,
});

describe('main-thread work per progress window', () => {
  it("counts each task's CPU once, in the window it ended in, and only the marking thread's", () => {
    const trace = {
      traceEvents: [
        mark(1_000),
        // the message's task, begun just before its mark, and the frame it caused
        task(990, 700, 600),
        task(2_000, 1_000, 900),
        // a nested RunTask is part of its outer task, not a second one
        { ...MAIN, name: 'RunTask', ph: 'X', ts: 2_100, dur: 200, tdur: 150 },
        // another thread's work is not the page's main thread
        task(3_000, 5_000, 5_000, { pid: 1, tid: 2 }),
        // a TimeStamp of something else opens no window
        mark(50_000, 'other'),
        mark(101_000),
        // ends in the second window, though it began in the first
        task(100_900, 300, 250),
        task(150_000, 100, 80),
      ],
    };
    const work = mainThreadMsAfterMarks(trace, { mark: 'bench:progress', windowMs: 100 });
    expect(work.threadMs).toEqual([1.5, 0.33]);
    // wall time is clipped to each window: the message's task loses the 10 µs before its mark, and the task
    // across the second mark is split between the two
    expect(work.wallMs).toEqual([1.79, 0.3]);
  });

  it("counts the app's own JavaScript apart: its calls and the microtasks, not the page's other scripts", () => {
    const call = (ts: number, tdur: number, url: string) => ({
      ...MAIN,
      name: 'FunctionCall',
      ph: 'X',
      ts,
      dur: tdur,
      tdur,
      args: { data: { url } },
    });
    const app = 'http://127.0.0.1:4000/assets/index-abc.js';
    const trace = {
      traceEvents: [
        mark(1_000),
        task(990, 2_000, 1_800),
        // the bench's probe (an init script) is not the app
        call(995, 100, ''),
        call(1_100, 400, app),
        // a call the app's handler made (a listener of an event it dispatched) is part of it, not a second one
        call(1_200, 50, app),
        { ...MAIN, name: 'BlinkScheduler_PerformMicrotaskCheckpoint', ph: 'X', ts: 1_600, dur: 30, tdur: 30 },
        mark(101_000),
        task(120_000, 500, 500),
        call(120_100, 200, app),
        // another thread's script is not the page's
        { ...call(120_100, 900, app), tid: 2 },
      ],
    };
    const work = mainThreadMsAfterMarks(trace, { mark: 'bench:progress', windowMs: 100, scriptUrl: /\/assets\// });
    expect(work.scriptMs).toEqual([0.43, 0.2]);
    expect(work.threadMs).toEqual([1.8, 0.5]);
    // without a script to look for, no script time
    expect(mainThreadMsAfterMarks(trace, { mark: 'bench:progress', windowMs: 100 }).scriptMs).toEqual([]);
  });

  it('tells the windows in which the page was laid out (words changed) from those of a batch alone, on the marking thread', () => {
    const layout = (ts: number, thread = MAIN) => ({ ...thread, name: 'Layout', ph: 'X', ts, dur: 100, tdur: 100 });
    const trace = {
      traceEvents: [
        mark(1_000),
        task(1_000, 500, 500),
        mark(101_000),
        task(101_000, 900, 900),
        layout(101_500),
        mark(201_000),
        task(201_000, 500, 500),
        // another thread's layout is not the page's
        layout(201_200, { pid: 1, tid: 2 }),
      ],
    };
    expect(mainThreadMsAfterMarks(trace, { mark: 'bench:progress', windowMs: 100 }).laidOut).toEqual([
      false,
      true,
      false,
    ]);
  });

  it('says so when the trace holds no mark', () => {
    expect(() =>
      mainThreadMsAfterMarks({ traceEvents: [task(0, 10, 10)] }, { mark: 'bench:progress', windowMs: 100 }),
    ).toThrow(/no bench:progress mark/);
  });
});
