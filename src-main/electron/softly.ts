import type { Log } from '../common/file-log.js';

/**
 * An OS integration that may be missing on some desktops (no power monitor,
 * no protocol handler registry): the app goes on without it and says so in the log.
 */
export function softly(log: Log | null, what: string, run: () => void): void {
  try {
    run();
  } catch (error) {
    log?.warn(`Going on without ${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
