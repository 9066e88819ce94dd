import type { AppIntent, SkipReason } from '../../src-shared/ipc/ipc-contract.js';
import { listFormat } from '../../src-shared/model/format.js';
import { currentLanguage, currentLocale, t } from '../i18n/i18n.js';
import { accountLabel } from './account-label.js';
import { errorText } from '../i18n/translate.js';

/** A toast as the Toaster shows it: every line a whole sentence. */
export interface ToastContent {
  title: string;
  lines: string[];
  /** shown as written, in code style: the refused link */
  detail: string | null;
  /** `problem` toasts stay until dismissed; `done` ones fade */
  tone: 'done' | 'problem';
}

type FileNames = { count: number; names: string[] };
type Skipped = Extract<AppIntent, { kind: 'filesQueued' }>['skipped'];

/** A list of names for the UI's language; English as the British write it ("a, b and c"), as before the catalogs. */
function nameList(): Intl.ListFormat {
  return listFormat(currentLanguage() === 'en' ? 'en-GB' : currentLocale(), { style: 'long', type: 'conjunction' });
}

/** The intents that are told rather than acted on: `import` and `files` open a view instead. */
export type ToldIntent = Exclude<AppIntent, { kind: 'import' | 'files' }>;

/**
 * What a page shows for an intent that is told rather than acted on (a
 * refused link, opened files). Every line is one sentence of the catalog in
 * the UI's language.
 */
export function intentToast(intent: ToldIntent): ToastContent {
  switch (intent.kind) {
    case 'invalidLink':
      return {
        title: t('queue.intents.linkNotOpened'),
        lines: [errorText(intent)],
        detail: intent.link,
        tone: 'problem',
      };
    case 'filesQueued': {
      const { queued, account } = intent;
      const lines = [
        t('queue.intents.queued', names(queued)),
        t('queue.intents.uploadTo', { count: queued.count, account: accountLabel(account) }),
        ...uploadedBeforeLines(intent.uploadedBefore),
        ...skippedLines(intent.skipped),
      ];
      const tone = intent.skipped.count > 0 ? 'problem' : 'done';
      return { title: t('queue.intents.added'), lines, detail: null, tone };
    }
    case 'filesNotQueued': {
      const { opened } = intent;
      const lines =
        intent.reason === 'signInFirst'
          ? [
              t('queue.intents.signInFirstNames', names(opened)),
              t('queue.intents.signInFirst', { count: opened.count }),
            ]
          : opened.count === 0
            ? [t('queue.intents.noneOpened')]
            : [...uploadedBeforeLines(intent.uploadedBefore), ...skippedLines(intent.skipped)];
      return { title: t('queue.intents.notAdded'), lines, detail: null, tone: 'problem' };
    }
  }
}

function uploadedBeforeLines(files: FileNames): string[] {
  if (files.count === 0) return [];
  return [t('queue.intents.uploadedBefore', names(files))];
}

const SKIPPED = {
  missing: 'queue.intents.missing',
  folder: 'queue.intents.folder',
  notAFile: 'queue.intents.notAFile',
  unreadable: 'queue.intents.unreadable',
} as const satisfies Record<SkipReason, string>;

function skippedLines(skipped: Skipped): string[] {
  const lines: string[] = skipped.files.map(({ name, reason }) => t(SKIPPED[reason], { name }));
  const more = skipped.count - skipped.files.length;
  if (more > 0) lines.push(t('queue.intents.moreNotAdded', { count: more }));
  return lines;
}

/**
 * The variables of a sentence about some files: `count` for the plural,
 * `name` (the one file), and `names`: "a.mp4, b.mp4 and c.mp4", or
 * "a.mp4, …, e.mp4 and 2 more" past the names the intent carries.
 */
function names(files: FileNames): { count: number; name: string; names: string } {
  const more = files.count - files.names.length;
  const shown = more > 0 ? [...files.names, t('queue.intents.more', { count: more })] : files.names;
  return { count: files.count, name: files.names[0] ?? '', names: nameList().format(shown) };
}
