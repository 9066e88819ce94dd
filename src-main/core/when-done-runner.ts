import { UNFINISHED_KINDS } from '../../src-shared/model/upload-state.js';
import type { WhenDoneAction, WhenDoneView } from '../../src-shared/model/when-done.js';
import type { Clock } from '../common/clock.js';
import { DisposableStore, Emitter, type Disposable } from '../common/disposable.js';
import type { Log } from '../common/file-log.js';
import type { Engine } from './engine.js';
import type { PowerActionsPort } from './ports.js';
import { whenDoneTransition, whenDoneView, type WhenDoneEvent, type WhenDoneState } from './when-done-transition.js';

/** What a shell offers "When done" (AppCoreOptions.whenDone). */
export interface WhenDoneOptions {
  power: PowerActionsPort;
  /** quits the app as its own Quit does (desktop: the quit runner; serve: the path SIGTERM takes) */
  quit(): void;
  /** how long the countdown gives a person to cancel (60 s) */
  countdownMs?: number;
}

export interface WhenDoneRunnerOptions extends WhenDoneOptions {
  engine: Pick<Engine, 'queue' | 'uploads' | 'sync'>;
  clock: Clock;
  log?: Log;
  /** between two looks at the queue while a choice waits (1 s): a file settling has no event of its own */
  pollMs?: number;
}

const DOING: Record<WhenDoneAction, string> = {
  sleep: 'puts the computer to sleep',
  shutdown: 'shuts the computer down',
  quit: 'quits',
};

/**
 * Runs "When done" (when-done-transition.ts) on the queue: looks at it at
 * each change of an upload and once a second while a choice waits, counts
 * down once it is done, then runs the action and clears the choice.
 */
export class WhenDoneRunner implements Disposable {
  private state: WhenDoneState = { kind: 'idle' };
  private timer: AbortController | null = null;
  private readonly countdownMs: number;
  private readonly subscriptions = new DisposableStore();
  private readonly emitter = new Emitter<WhenDoneView | null>();
  /** the choice or its countdown changed */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly options: WhenDoneRunnerOptions) {
    this.countdownMs = options.countdownMs ?? 60_000;
    this.subscriptions.add(options.engine.queue.onDidChangeItem(() => this.look()));
  }

  view(): WhenDoneView | null {
    return whenDoneView(this.state);
  }

  /** The person's choice; null ("do nothing") clears it and cancels a countdown. */
  choose(action: WhenDoneAction | null): void {
    this.apply({ type: 'choose', action });
    this.look();
  }

  dispose(): void {
    this.timer?.abort();
    this.timer = null;
    this.subscriptions.dispose();
    this.emitter.dispose();
  }

  /** No upload that is not final, and no file settling or being looked at in a watched folder. */
  private isDone(): boolean {
    const { uploads, sync } = this.options.engine;
    return uploads.count(UNFINISHED_KINDS) === 0 && !sync.busy;
  }

  private look(): void {
    if (this.state.kind !== 'armed' && this.state.kind !== 'countingDown') return;
    const { clock } = this.options;
    const done = this.isDone();
    this.apply({ type: 'look', done, now: clock.monotonic(), wallNow: clock.wall(), countdownMs: this.countdownMs });
  }

  private apply(event: WhenDoneEvent): void {
    const before = this.state;
    const next = whenDoneTransition(before, event);
    if (next === before) return;
    this.state = next;
    this.logChange(before, next);
    this.emitter.fire(this.view());
    this.schedule();
    if (next.kind === 'running') void this.run(next.action);
  }

  /** The next look: a second away, or at the countdown's end when sooner. */
  private schedule(): void {
    this.timer?.abort();
    this.timer = null;
    const state = this.state;
    if (state.kind !== 'armed' && state.kind !== 'countingDown') return;
    const { clock } = this.options;
    const pollMs = this.options.pollMs ?? 1_000;
    const wait = state.kind === 'countingDown' ? Math.min(pollMs, state.deadline - clock.monotonic()) : pollMs;
    const timer = new AbortController();
    this.timer = timer;
    clock.sleep(Math.max(0, wait), timer.signal).then(
      () => {
        if (this.timer !== timer) return;
        this.timer = null;
        this.look();
        if (this.timer === null) this.schedule();
      },
      () => undefined,
    );
  }

  private async run(action: WhenDoneAction): Promise<void> {
    const { power, quit, log } = this.options;
    try {
      if (action === 'sleep') await power.sleep();
      else if (action === 'shutdown') await power.shutDown();
      else quit();
    } catch (error) {
      log?.error(
        `When done: the queue is done, but the computer did not ${action === 'sleep' ? 'sleep' : 'shut down'}.`,
        error,
      );
    } finally {
      this.apply({ type: 'finished' });
    }
  }

  private logChange(before: WhenDoneState, now: WhenDoneState): void {
    const log = this.options.log;
    if (!log) return;
    if (now.kind === 'countingDown') {
      log.info(
        `When done: the queue is done; Media Sync ${DOING[now.action]} in ${Math.round(this.countdownMs / 1000)} s unless cancelled.`,
      );
    } else if (now.kind === 'running') log.info(`When done: Media Sync ${DOING[now.action]} now.`);
    else if (before.kind === 'countingDown' && now.kind === 'armed')
      log.info('When done: new work arrived, the countdown stopped.');
    else if (before.kind === 'countingDown' && now.kind === 'idle') log.info('When done: the countdown was cancelled.');
  }
}
