import type { App } from 'electron';
import { INITIAL_QUIT_STATE, quitTransition, type QuitEvent, type QuitState } from './quit-lifecycle.js';

/** Once stopped, the process ends this long after `app.quit()` even if something cancelled that quit. */
const EXIT_AFTER_QUIT_MS = 3_000;

/**
 * The runner of quit-lifecycle.ts on Electron's app: `before-quit` and the
 * updater's stop go in, the effects come out (prevent that quit, run `stop`,
 * quit again once it is done).
 */
export class QuitRunner {
  private current: QuitState = INITIAL_QUIT_STATE;
  private stopping: Promise<void> | null = null;

  constructor(
    private readonly app: Pick<App, 'quit' | 'exit'>,
    /** the orderly stop: the desktop app's Shutdown, capped */
    private readonly stop: () => Promise<void>,
  ) {}

  get state(): QuitState {
    return this.current;
  }

  /** The start is done: the app runs until a quit. */
  ready(): void {
    this.apply({ type: 'ready' });
  }

  /** Electron's `before-quit`. */
  beforeQuit(event: { preventDefault(): void }): void {
    this.apply({ type: 'quit-requested' }, event);
  }

  /**
   * The updater's half of a quit: everything stopped as for a quit, then the
   * updater quits the app itself (and installs on its way out).
   */
  async stopWithoutQuitting(): Promise<void> {
    this.apply({ type: 'stop-requested' });
    await this.stopping;
  }

  /** Everything stopped: Electron closes the window (now allowed), emits will-quit and quit, and ends. */
  quitNow(): void {
    this.app.quit();
    // something may still cancel the quit (a page's beforeunload): the process ends all the same
    setTimeout(() => this.app.exit(0), EXIT_AFTER_QUIT_MS).unref();
  }

  private apply(event: QuitEvent, electronEvent?: { preventDefault(): void }): void {
    const step = quitTransition(this.current, event);
    this.current = step.state;
    for (const effect of step.effects) {
      switch (effect) {
        case 'prevent-quit':
          electronEvent?.preventDefault();
          break;
        case 'begin-stop':
          this.stopping = this.stop().then(() => this.apply({ type: 'stopped' }));
          break;
        case 'quit':
          this.quitNow();
          break;
      }
    }
  }
}
