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

  it('says so when the trace holds no mark', () => {
    expect(() =>
      mainThreadMsAfterMarks({ traceEvents: [task(0, 10, 10)] }, { mark: 'bench:progress', windowMs: 100 }),
    ).toThrow(/no bench:progress mark/);
  });
});
