import type { UpdateStatus } from '../../src-shared/model/update-status.js';

// the UI's language; one place to change once there is a message catalog
const LOCALE = 'en-GB';

/** How dates and percentages read in the update sentences: Intl, so a catalog's locale changes them too. */
export interface UpdateFormatters {
  /** an ISO instant, as a date and time: "12 Mar 2025, 14:05" */
  dateTime(iso: string): string;
  /** 0–100, as a whole percentage, rounded down so 99.6 is not yet "100%" */
  percent(value: number): string;
}

/** The formatters for `locale`; `timeZone` only for tests (the person's own otherwise). */
export function updateFormatters(locale: string = LOCALE, timeZone?: string): UpdateFormatters {
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  return {
    dateTime: (iso) => dateTime.format(new Date(iso)),
    percent: (value) => percent.format(Math.floor(Math.min(100, Math.max(0, value))) / 100),
  };
}

/** What Settings says and offers for an update status. */
export interface UpdateStatusText {
  /** whole sentences, one per line, read out by the section's status region */
  lines: string[];
  /** a check may start: not while one runs or a download goes on, not when an update waits, never when unavailable */
  canCheck: boolean;
  /** "Restart to update" is offered */
  canInstall: boolean;
}

/**
 * The status in words. Each line is one whole sentence with its values in
 * placeholders, so a message catalog can take them as they are; the core's
 * own sentences (`reason`, `message`) are shown as they come.
 */
export function describeUpdateStatus(status: UpdateStatus, format: UpdateFormatters): UpdateStatusText {
  switch (status.state) {
    case 'unavailable':
      return { lines: [status.reason], canCheck: false, canInstall: false };
    case 'idle':
      return {
        lines: [
          status.checkedAt === null
            ? 'Media Sync has not checked for updates yet.'
            : `Media Sync is up to date. Last checked ${format.dateTime(status.checkedAt)}.`,
        ],
        canCheck: true,
        canInstall: false,
      };
    case 'checking':
      return { lines: ['Checking for updates…'], canCheck: false, canInstall: false };
    case 'downloading':
      return {
        lines: [`Downloading Media Sync ${status.version}: ${format.percent(status.percent)} done.`],
        canCheck: false,
        canInstall: false,
      };
    case 'ready':
      return {
        lines: [
          updateReadyText(status.version),
          'It is installed when you restart to update, or else the next time you quit Media Sync.',
        ],
        canCheck: false,
        canInstall: true,
      };
    case 'failed':
      return {
        lines: [status.message, `Last checked ${format.dateTime(status.checkedAt)}.`],
        canCheck: true,
        canInstall: false,
      };
  }
}

/** The banner's sentence, and Settings' first line, while a downloaded update waits. */
export function updateReadyText(version: string): string {
  return `Media Sync ${version} is ready to install.`;
}
