import type { App, BrowserWindow } from 'electron';
import { numberFormat } from '../../src-shared/model/format.js';
import type { QueueProgress } from './queue-progress.js';

export interface TaskbarProgressOptions {
  app: Pick<App, 'dock'>;
  /** the app's window, while there is one */
  window(): Pick<BrowserWindow, 'setProgressBar' | 'isDestroyed'> | null;
  platform: NodeJS.Platform;
  /** the core's locale, for the badge's number */
  locale(): string;
}

/**
 * The queue's progress where the OS shows it (queue-progress.ts says what):
 * `BrowserWindow.setProgressBar` on the taskbar button (Windows), the Dock
 * icon (macOS) or the launcher (Linux docks with the LauncherEntry API),
 * with mode `paused` or `error` (Windows draws those; the others show the
 * bar alone), removed (-1) when idle; and on macOS the Dock's badge with the
 * files left. Each is set again only when it changed.
 */
export class TaskbarProgress {
  // nothing shows before the first call
  private shownBar = 'none';
  private shownBadge = '';

  constructor(private readonly options: TaskbarProgressOptions) {}

  show(progress: QueueProgress): void {
    const window = this.options.window();
    const { bar } = progress;
    // a thousandth is finer than any taskbar draws: no call for what would not move a pixel
    const key = bar ? `${bar.mode} ${bar.fraction.toFixed(3)}` : 'none';
    if (window && !window.isDestroyed() && key !== this.shownBar) {
      if (bar) window.setProgressBar(bar.fraction, { mode: bar.mode });
      else window.setProgressBar(-1);
      this.shownBar = key;
    }
    const dock = this.options.platform === 'darwin' ? this.options.app.dock : undefined;
    const badge = progress.filesLeft > 0 ? numberFormat(this.options.locale()).format(progress.filesLeft) : '';
    if (dock && badge !== this.shownBadge) {
      dock.setBadge(badge);
      this.shownBadge = badge;
    }
  }
}
