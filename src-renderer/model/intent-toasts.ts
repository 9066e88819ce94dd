import type { AppIntent, SkipReason } from '../../src-shared/ipc/ipc-contract.js';
import { accountLabel } from './account-label.js';

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

// the UI's language; one place to change once there is a message catalog
const LOCALE = 'en-GB';
const number = new Intl.NumberFormat(LOCALE);
const list = new Intl.ListFormat(LOCALE, { style: 'long', type: 'conjunction' });

/**
 * What a page shows for an intent that is told rather than acted on (a
 * refused link, opened files); null for `import` and `files`, which open a
 * view instead.
 */
export function intentToast(intent: AppIntent): ToastContent | null {
  switch (intent.kind) {
    case 'import':
    case 'files':
      return null;
    case 'invalidLink':
      return { title: 'This link was not opened', lines: [intent.message], detail: intent.link, tone: 'problem' };
    case 'filesQueued': {
      const { queued, account } = intent;
      const lines = [
        queued.count === 1
          ? `${queued.names[0]} was added to the queue.`
          : `${number.format(queued.count)} files were added to the queue: ${namesOf(queued)}.`,
        queued.count === 1
          ? `It will be uploaded to ${accountLabel(account)}.`
          : `They will be uploaded to ${accountLabel(account)}.`,
        ...uploadedBeforeLines(intent.uploadedBefore),
        ...skippedLines(intent.skipped),
      ];
      const tone = intent.skipped.count > 0 ? 'problem' : 'done';
      return { title: 'Added to the queue', lines, detail: null, tone };
    }
    case 'filesNotQueued': {
      const { opened } = intent;
      const lines =
        intent.reason === 'signInFirst'
          ? [
              opened.count === 1
                ? `No account is signed in, so ${opened.names[0]} was not added to the queue.`
                : `No account is signed in, so ${number.format(opened.count)} files were not added to the queue: ${namesOf(opened)}.`,
              opened.count === 1
                ? 'Sign in first, then open the file again.'
                : 'Sign in first, then open the files again.',
            ]
          : opened.count === 0
            ? ['No files were opened.']
            : [...uploadedBeforeLines(intent.uploadedBefore), ...skippedLines(intent.skipped)];
      return { title: 'Not added to the queue', lines, detail: null, tone: 'problem' };
    }
  }
}

function uploadedBeforeLines(files: FileNames): string[] {
  if (files.count === 0) return [];
  return [
    files.count === 1
      ? `${files.names[0]} was uploaded before, so it was not added again.`
      : `${number.format(files.count)} files were uploaded before, so they were not added again: ${namesOf(files)}.`,
  ];
}

const SKIPPED: Record<SkipReason, (name: string) => string> = {
  missing: (name) => `${name} was not added: it does not exist.`,
  folder: (name) => `${name} was not added: it is a folder. To upload what is in a folder, watch it in Settings.`,
  notAFile: (name) => `${name} was not added: it is not a regular file.`,
  unreadable: (name) => `${name} was not added: Media Sync may not read it.`,
};

function skippedLines(skipped: Skipped): string[] {
  const lines = skipped.files.map(({ name, reason }) => SKIPPED[reason](name));
  const more = skipped.count - skipped.files.length;
  if (more === 1) lines.push('1 more file was not added.');
  if (more > 1) lines.push(`${number.format(more)} more files were not added.`);
  return lines;
}

/** "a.mp4, b.mp4 and c.mp4", or "a.mp4, …, e.mp4 and 2 more" past the names the intent carries. */
function namesOf(files: FileNames): string {
  const more = files.count - files.names.length;
  return list.format(more > 0 ? [...files.names, `${number.format(more)} more`] : files.names);
}
