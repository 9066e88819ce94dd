import { dateTimeFormat, numberFormat } from '../../src-shared/model/format.js';
import type { UpdateStatus } from '../../src-shared/model/update-status.js';
import { t } from '../i18n/i18n.js';
import { translate } from '../i18n/translate.js';

/** How dates and percentages read in the update sentences: Intl, so a catalog's locale changes them too. */
export interface UpdateFormatters {
  /** an ISO instant, as a date and time: "12 Mar 2025, 14:05" */
  dateTime(iso: string): string;
  /** 0–100, as a whole percentage, rounded down so 99.6 is not yet "100%" */
  percent(value: number): string;
}

/** The formatters for `locale` (the UI's, from `useLocale`); `timeZone` only for tests (the person's own otherwise). */
export function updateFormatters(locale: string, timeZone?: string): UpdateFormatters {
  const dateTime = dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const percent = numberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
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
 * own sentences come as catalog messages (`text`), said in the UI's language;
 * an updater's error `message` is shown as it comes.
 */
export function describeUpdateStatus(status: UpdateStatus, format: UpdateFormatters): UpdateStatusText {
  switch (status.state) {
    case 'unavailable':
      return { lines: [status.text ? translate(status.text) : status.reason], canCheck: false, canInstall: false };
    case 'idle':
      return {
        lines: [
          status.checkedAt === null
            ? t('updates.notChecked')
            : t('updates.upToDate', { checkedAt: format.dateTime(status.checkedAt) }),
        ],
        canCheck: true,
        canInstall: false,
      };
    case 'checking':
      return { lines: [t('updates.checking')], canCheck: false, canInstall: false };
    case 'downloading':
      return {
        lines: [t('updates.downloading', { version: status.version, percent: format.percent(status.percent) })],
        canCheck: false,
        canInstall: false,
      };
    case 'ready':
      return {
        lines: [updateReadyText(status.version), t('updates.installWhen')],
        canCheck: false,
        canInstall: true,
      };
    case 'failed':
      return {
        lines: [status.message, t('updates.lastChecked', { checkedAt: format.dateTime(status.checkedAt) })],
        canCheck: true,
        canInstall: false,
      };
  }
}

/** The banner's sentence, and Settings' first line, while a downloaded update waits. */
export function updateReadyText(version: string): string {
  return t('updates.ready', { version });
}
