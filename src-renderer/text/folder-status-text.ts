import type { FolderRecentFile, FolderState } from '../../src-shared/model/folder-status.js';
import { formatBytes, formatDuration } from '../../src-shared/model/format.js';
import { currentLocale, t } from '../i18n/i18n.js';
import { accountLabel } from './account-label.js';
import { formatEdge, type TimeContext } from './queue-row-text.js';

/** The card's icon: a check, a spinner, a pause sign or a warning. */
export type FolderIcon = 'ok' | 'busy' | 'paused' | 'problem';

export interface FolderStateText {
  /** the state in words: "Up to date since 14:05", "Uploading 3 files" */
  title: string;
  /** a second line: bytes and time left, why it waits, what to do about a problem */
  detail: string | null;
  icon: FolderIcon;
  /**
   * what a problem calls for: a refused token, a new sign-in; an account
   * signed out, to sign in to it again or move the folder to another account
   */
  action: 'signIn' | 'signInOrMove' | null;
}

/**
 * A watched folder's state as its card says it, whole sentences of the
 * catalogs, times (`clock`, "14:05"; "Mon 09:00" on another day) and sizes in
 * the page's locale.
 */
export function folderStateText(state: FolderState, when: TimeContext): FolderStateText {
  const locale = when.locale ?? currentLocale();
  const time = (at: number) => formatEdge(at, when);
  switch (state.kind) {
    case 'watching':
      return {
        title: t('folders.state.watching', { time: time(state.since) }),
        detail: null,
        icon: 'ok',
        action: null,
      };
    case 'scanning':
      return { title: t('folders.state.scanning', { count: state.found }), detail: null, icon: 'busy', action: null };
    case 'settling':
      return {
        title: t('folders.state.settling', { count: state.files }),
        detail: t('folders.state.settlingDetail'),
        icon: 'busy',
        action: null,
      };
    case 'uploading': {
      const done = formatBytes(state.bytesDone, locale);
      const total = formatBytes(state.bytesTotal, locale);
      return {
        title: t('folders.state.uploading', { count: state.files }),
        detail:
          state.secondsLeft === null
            ? t('folders.state.bytes', { done, total })
            : t('folders.state.bytesLeft', { done, total, left: formatDuration(state.secondsLeft, locale) }),
        icon: 'busy',
        action: null,
      };
    }
    case 'filesPaused':
      return {
        title: t('folders.state.filesPaused', { count: state.files }),
        detail: t('folders.state.filesPausedDetail', {
          count: state.files,
          done: formatBytes(state.bytesDone, locale),
          total: formatBytes(state.bytesTotal, locale),
        }),
        icon: 'paused',
        action: null,
      };
    case 'paused':
      return { ...pausedText(state.by, state.until, time), icon: 'paused', action: null };
    case 'problem':
      if (state.problem === 'accountGone') {
        return {
          title: t('folders.problem.accountGone'),
          detail: state.account
            ? t('folders.problem.accountGoneDetail', { account: accountLabel(state.account) })
            : t('folders.problem.accountGoneUnknown'),
          icon: 'problem',
          action: 'signInOrMove',
        };
      }
      return {
        title: t(`folders.problem.${state.problem}`),
        detail: t(`folders.problem.${state.problem}Detail`),
        icon: 'problem',
        action: state.problem === 'signedOut' ? 'signIn' : null,
      };
  }
}

function pausedText(
  by: Extract<FolderState, { kind: 'paused' }>['by'],
  until: number | null,
  time: (at: number) => string,
): { title: string; detail: string | null } {
  switch (by) {
    case 'folder':
      return { title: t('folders.paused.folder'), detail: t('folders.paused.folderDetail') };
    case 'queue':
      return { title: t('folders.paused.queue'), detail: t('folders.paused.queueDetail') };
    case 'schedule':
      return {
        title: until === null ? t('folders.paused.schedule') : t('folders.paused.scheduleUntil', { time: time(until) }),
        detail: null,
      };
    case 'battery':
      return { title: t('folders.paused.battery'), detail: null };
    case 'metered':
      return { title: t('folders.paused.metered'), detail: null };
  }
}

/** What became of one of the folder's last files: "uploaded", "failed", "skipped". */
export function recentOutcomeText(file: FolderRecentFile): string {
  return file.changedSinceUpload ? t('folders.outcomeChanged') : t(`folders.outcome.${file.outcome}`);
}
