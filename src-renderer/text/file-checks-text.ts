import type { FolderPolling } from '../../src-shared/model/folder-status.js';
import { RECORDINGS_SETTLE_SECONDS } from '../../src-shared/model/folder-options.js';
import { t } from '../i18n/i18n.js';

/** The catalog's sentences that come as a pair: one for whole minutes, one for seconds. */
type Timed = 'network' | 'chosen' | 'settle' | 'summarySettle' | 'pollEvery';

/** A time said in whole minutes when it is some ("every 5 minutes"), else in seconds ("every 15 seconds"). */
function timed(sentence: Timed, seconds: number, values: { fileSystem?: string } = {}): string {
  return seconds % 60 === 0
    ? t(`fileChecks.${sentence}Minutes`, { count: seconds / 60, fileSystem: values.fileSystem ?? '' })
    : t(`fileChecks.${sentence}Seconds`, { count: seconds, fileSystem: values.fileSystem ?? '' });
}

/** A polled folder in its card's words: "Network folder (NFS): checked every minute", and why that matters. */
export function pollingText(polling: FolderPolling): { title: string; detail: string | null } {
  return polling.why === 'network'
    ? {
        title: timed('network', polling.everySeconds, { fileSystem: polling.fileSystem ?? '' }),
        detail: t('fileChecks.pollingDetail'),
      }
    : { title: timed('chosen', polling.everySeconds), detail: null };
}

/** One choice of the folder form's settle window: null is the app's default (3 s), 2 minutes is "for recordings". */
export function settleChoiceText(seconds: number | null): string {
  if (seconds === null) return t('fileChecks.settleDefault');
  if (seconds === RECORDINGS_SETTLE_SECONDS) return t('fileChecks.settleRecordings');
  return timed('settle', seconds);
}

/** The settle window in a folder's summary line, when it is not the default. */
export function settleSummaryText(seconds: number): string {
  return timed('summarySettle', seconds);
}

/** One choice of Settings' polling interval: "Every minute". */
export function pollIntervalText(seconds: number): string {
  return timed('pollEvery', seconds);
}
