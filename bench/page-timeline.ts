/**
 * What bench/queue-render.ts measures inside the page, from the page's own
 * timeline and a Chromium trace. The page functions here run in the browser
 * (passed to `addInitScript` / `evaluate`), so they use nothing from outside
 * their own body. tsx names inner functions with an `__name` helper the page
 * does not have: `PAGE_HELPERS` gives it one.
 */

/** An init script: the `__name` helper tsx's output calls in the page functions below. */
export const PAGE_HELPERS = 'globalThis.__name = (fn) => fn;';

/** The `console.timeStamp` a page sets as each progress batch (or tick) arrives on its socket: a window's start. */
export const PROGRESS_MARK = 'bench:progress';

/** Enough for the renderer's top-level tasks and the marks (`TimeStamp` events). */
export const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline'];

interface ProbeRecord {
  socketCreated: number | null;
  socketOpen: number | null;
  sent: { t: number; id: number | null; name: string | null }[];
  received: { t: number; id: number | null; event: string | null; bytes: number }[];
  longTasks: { start: number; duration: number }[];
  /** when the first queue row entered the DOM */
  firstRowCommit: number | null;
  /** the end of the first frame that showed it (the task after that frame's rendering): the first rows' time */
  firstRowFrame: number | null;
}

/**
 * Init script: records the page's socket (created, opened, each command sent
 * and each answer or event received, by id and size, without parsing the
 * answers twice), the long tasks, when the first queue row enters the DOM and
 * the end of the frame that shows it.
 */
export function installPageProbe(): void {
  const probe: ProbeRecord = {
    socketCreated: null,
    socketOpen: null,
    sent: [],
    received: [],
    longTasks: [],
    firstRowCommit: null,
    firstRowFrame: null,
  };
  (window as unknown as { __probe: ProbeRecord }).__probe = probe;
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (this: WebSocket, data: string) {
    const head = /^\{"id":(\d+),"name":"([^"]+)"/.exec(String(data).slice(0, 120));
    probe.sent.push({ t: performance.now(), id: head ? Number(head[1]) : null, name: head ? head[2]! : null });
    send.call(this, data);
  };
  window.WebSocket = new Proxy(WebSocket, {
    construct(target, args: [string]) {
      const socket = Reflect.construct(target, args) as WebSocket;
      probe.socketCreated ??= performance.now();
      socket.addEventListener('open', () => (probe.socketOpen ??= performance.now()));
      // registered before the bridge's onmessage: the time a message arrived, not when it was handled
      socket.addEventListener('message', (event: MessageEvent) => {
        const text = String(event.data);
        // a batch or a tick of bench/progress-feed.ts opens its window
        if (text.startsWith('{"event":"uploads:progress"') || text.startsWith('{"event":"bench:tick"')) {
          console.timeStamp('bench:progress');
        }
        // what came before the first rows, for the breakdown; afterwards nothing, in the windows measured
        if (probe.firstRowFrame !== null) return;
        const head = /^\{"(id|event)":(\d+|"[^"]+")/.exec(text.slice(0, 120));
        probe.received.push({
          t: performance.now(),
          id: head?.[1] === 'id' ? Number(head[2]) : null,
          event: head?.[1] === 'event' ? head[2]!.slice(1, -1) : null,
          bytes: text.length,
        });
      });
      return socket;
    },
  });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver((_records, observer) => {
    if (!document.querySelector('.queue-row__name')) return;
    observer.disconnect();
    probe.firstRowCommit = performance.now();
    requestAnimationFrame(() => setTimeout(() => (probe.firstRowFrame ??= performance.now())));
  }).observe(document, { childList: true, subtree: true });
}

/** Page function: the breakdown of the time to the first rows, in ms since navigation. */
export function readBreakdown() {
  const probe = (window as unknown as { __probe: ProbeRecord }).__probe;
  const r = (value: number | null | undefined) => (value == null ? null : Math.round(value * 10) / 10);
  const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
    .filter((entry) => /\.(js|css)$/.test(new URL(entry.name).pathname))
    .map((entry) => ({
      file: new URL(entry.name).pathname.split('/').at(-1),
      start: r(entry.startTime),
      end: r(entry.responseEnd),
      bytes: entry.encodedBodySize,
    }));
  const firstRows = probe.firstRowCommit ?? Infinity;
  const commands = probe.sent
    .filter((sent) => sent.t <= firstRows)
    .map((sent) => {
      const answer = probe.received.find((received) => received.id === sent.id);
      return { name: sent.name, sent: r(sent.t), answered: r(answer?.t), bytes: answer?.bytes ?? null };
    });
  const paint = performance.getEntriesByType('paint').map((entry) => [entry.name, r(entry.startTime)]);
  return {
    html: r(navigation?.responseEnd),
    dom_content_loaded: r(navigation?.domContentLoadedEventEnd),
    resources,
    socket_created: r(probe.socketCreated),
    socket_open: r(probe.socketOpen),
    commands,
    first_row_commit: r(probe.firstRowCommit),
    first_row_frame: r(probe.firstRowFrame),
    paint: Object.fromEntries(paint),
    long_tasks: probe.longTasks
      .filter((task) => task.start <= firstRows)
      .map((task) => ({ start: r(task.start), duration: r(task.duration) })),
  };
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** the thread's own CPU time in the event (µs): what it worked, not what it waited for a core */
  tdur?: number;
  cat?: string;
  args?: { data?: { message?: string; url?: string } };
}

/** Main-thread work in each window after a mark, in ms. */
export interface WindowWork {
  /** wall time inside top-level tasks: on a busy machine it counts time the thread waited for a core */
  wallMs: number[];
  /** the thread's CPU time in those tasks: the work itself, whatever else the machine runs */
  threadMs: number[];
  /**
   * the thread's CPU time in the page's own JavaScript: the browser's calls into scripts whose URL
   * `scriptUrl` matches (a socket's onmessage, a timer, a frame callback) and the microtasks run after a
   * task's script (promises, React's batched renders); empty without `scriptUrl`
   */
  scriptMs: number[];
  /**
   * whether the window held a layout: text on the page changed (a row's words, the speed), which a batch
   * alone does not cause (the bars move by their transforms)
   */
  laidOut: boolean[];
}

interface Span {
  start: number;
  end: number;
  /** thread time (µs) */
  thread: number;
}

/** Complete events that nest (a RunTask in a RunTask, a call in a call) as their outermost spans, so none counts twice. */
function outermost(events: readonly TraceEvent[]): Span[] {
  const spans: Span[] = [];
  for (const event of [...events].sort((a, b) => a.ts - b.ts)) {
    const end = event.ts + (event.dur ?? 0);
    const last = spans.at(-1);
    if (last && event.ts < last.end) last.end = Math.max(last.end, end);
    else spans.push({ start: event.ts, end, thread: event.tdur ?? event.dur ?? 0 });
  }
  return spans;
}

/**
 * Main-thread work after each `mark` (a `console.timeStamp`) in a Chromium
 * trace: the top-level tasks of the thread that set the marks in [mark, next
 * mark) (the last one to `windowMs`). Everything the batch caused on the main
 * thread (the message, the handler, React's render, style, layout and paint)
 * falls in its window; so does anything else that ran then, such as a timer.
 * Wall time is clipped to the window; thread time, which the trace gives per
 * task only, counts a task in the window it ended in (the message's task
 * sets the mark as its handlers begin, so it counts whole in its own window;
 * tasks last milliseconds, windows 100). Script time is counted the same way.
 */
export function mainThreadMsAfterMarks(
  trace: unknown,
  options: { mark: string; windowMs: number; scriptUrl?: RegExp },
): WindowWork {
  const events = ((trace as { traceEvents?: TraceEvent[] }).traceEvents ?? trace) as TraceEvent[];
  const marks = events
    .filter((event) => event.name === 'TimeStamp' && event.args?.data?.message === options.mark)
    .sort((a, b) => a.ts - b.ts);
  if (marks.length === 0) throw new Error(`the trace holds no ${options.mark} mark`);
  const { pid, tid } = marks[0]!;
  const onThread = events.filter((event) => event.pid === pid && event.tid === tid && event.ph === 'X');
  const tasks = outermost(
    onThread.filter((event) => event.name === 'ThreadControllerImpl::RunTask' || event.name === 'RunTask'),
  );
  const { scriptUrl } = options;
  const scripts = scriptUrl
    ? outermost(
        onThread.filter(
          (event) =>
            (event.name === 'FunctionCall' && scriptUrl.test(event.args?.data?.url ?? '')) ||
            event.name === 'BlinkScheduler_PerformMicrotaskCheckpoint',
        ),
      )
    : undefined;
  const layouts = onThread.filter((event) => event.name === 'Layout').map((event) => event.ts);
  const work: WindowWork = { wallMs: [], threadMs: [], scriptMs: [], laidOut: [] };
  const threadIn = (spans: Span[], from: number, to: number) =>
    spans.reduce((sum, span) => (span.end > from && span.end <= to ? sum + span.thread : sum), 0) / 1_000;
  marks.forEach((mark, i) => {
    const from = mark.ts;
    const to = marks[i + 1]?.ts ?? from + options.windowMs * 1_000;
    const wall = tasks.reduce((sum, task) => sum + Math.max(0, Math.min(task.end, to) - Math.max(task.start, from)), 0);
    work.wallMs.push(wall / 1_000);
    work.threadMs.push(threadIn(tasks, from, to));
    if (scripts) work.scriptMs.push(threadIn(scripts, from, to));
    work.laidOut.push(layouts.some((ts) => ts >= from && ts < to));
  });
  return work;
}

/** The value at quantile `q` (nearest rank below) of unsorted numbers. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
