import type { FileWhy } from '../ipc/ipc-contract.js';
import { message, type Message } from '../i18n/message.js';
import { dateTimeFormat, formatBytes } from './format.js';
import type { LeftAlone } from './left-alone.js';
import type { UploadProblem } from './upload-state.js';

/**
 * "Why this file?" in words, as catalog messages (the `why` block): the
 * folder and its state, what holds for the file, and what happens next. One
 * mapping for the UI (in its language) and the CLI (English), so both say
 * the same. Times, links and a failure's reason are not in these sentences:
 * each side shows them as rows of their own (times formatted with Intl); a
 * rule's limits are (sizes and dates written for `locale`).
 */
export interface FileWhyWords {
  folder: Message;
  verdict: Message;
  next: Message;
}

export function fileWhyWords(why: FileWhy, locale = 'en-US'): FileWhyWords {
  return { folder: folderWords(why), verdict: verdictWords(why, locale), next: nextWords(why) };
}

/**
 * What went wrong with the file's upload, shown beside the sentences with
 * its request id: a failure's reason, or the error a retry waits out.
 */
export function whyProblem({ verdict }: FileWhy): UploadProblem | null {
  if (verdict.kind !== 'failed' && verdict.kind !== 'inQueue') return null;
  const state = verdict.item.state;
  return state.kind === 'failed' ? state.reason : state.kind === 'retrying' ? state.lastError : null;
}

function folderWords({ folder }: FileWhy): Message {
  if (!folder) return message('why.folderNone');
  const values = { folder: folder.path };
  const { state } = folder;
  if (state.kind === 'paused')
    return message(state.by === 'folder' ? 'why.folderPaused' : 'why.folderQueuePaused', values);
  if (state.kind === 'problem') {
    if (state.problem === 'missing') return message('why.folderMissing', values);
    if (state.problem === 'notConnected') return message('why.folderNotConnected', values);
    if (state.problem === 'unreadable') return message('why.folderUnreadable', values);
    return message('why.folderHeld', values);
  }
  if (folder.polling) return message('why.folderPolled', { ...values, count: folder.polling.everySeconds });
  return message('why.folderLive', values);
}

function verdictWords({ verdict, path }: FileWhy, locale: string): Message {
  switch (verdict.kind) {
    case 'leftAlone':
      return ruleWords(verdict.rule, path, locale);
    case 'inQueue': {
      const state = verdict.item.state;
      if (state.kind === 'queued') return message(state.waiting ? 'why.queuedBeingWritten' : 'why.queued');
      if (state.kind === 'retrying') return message('why.retrying');
      if (state.kind === 'paused') return message('why.itemPaused');
      return message('why.uploading');
    }
    case 'failed':
      return message('why.failed');
    case 'uploaded':
      if (verdict.existing) return message('why.uploadedExisting');
      return message(verdict.changedSince ? 'why.uploadedChanged' : 'why.uploaded');
    default:
      return message(`why.${verdict.kind}`);
  }
}

function ruleWords(rule: LeftAlone, path: string, locale: string): Message {
  const size = (bytes: number) => formatBytes(bytes, locale);
  switch (rule.rule) {
    case 'hidden':
      return message('why.ruleHidden', { segment: rule.segment });
    case 'litter':
      return message('why.ruleLitter', { pattern: rule.pattern });
    case 'glob':
      return message('why.ruleGlob', { pattern: rule.pattern });
    case 'inSubfolder':
      return message('why.ruleInSubfolder');
    case 'movedInto':
      return message('why.ruleMovedInto', { subfolder: rule.subfolder });
    case 'type': {
      const extension = /\.([^./\\]+)$/.exec(path)?.[1];
      return extension ? message('why.ruleType', { extension }) : message('why.ruleTypeNoExtension');
    }
    case 'size':
      if (rule.min !== null && rule.max !== null)
        return message('why.ruleSizeBetween', { min: size(rule.min), max: size(rule.max) });
      return rule.min !== null
        ? message('why.ruleSizeMin', { min: size(rule.min) })
        : message('why.ruleSizeMax', { max: size(rule.max ?? 0) });
    case 'modified':
      return message('why.ruleModified', { date: dateTimeFormat(locale, { dateStyle: 'medium' }).format(rule.after) });
  }
}

function nextWords({ verdict, folder }: FileWhy): Message {
  switch (verdict.kind) {
    case 'missing':
    case 'notAFile':
      return message('why.nextMissing');
    case 'outside':
      return message('why.nextOutside');
    case 'leftAlone':
      return message('why.nextLeftAlone');
    case 'inQueue': {
      const state = verdict.item.state;
      if (state.kind === 'retrying') return message('why.nextRetry');
      if (state.kind === 'paused') return message('why.nextItemPaused');
      if (state.kind !== 'queued') return message('why.nextUploading');
      if (folder?.state.kind === 'paused')
        return message(folder.state.by === 'folder' ? 'why.nextFolderPaused' : 'why.nextQueuePaused');
      if (folder?.state.kind === 'problem') return message('why.nextHeld');
      return message(state.waiting ? 'why.nextBeingWritten' : 'why.nextQueued');
    }
    case 'failed':
      return message('why.nextFailed');
    case 'declined':
      return message('why.nextDeclined');
    case 'uploaded':
      if (!verdict.changedSince) return message('why.nextUploaded');
      return message(folder ? 'why.nextChangedFolder' : 'why.nextChangedOutside');
    case 'known':
      return message('why.nextKnown');
    case 'notSeenYet':
      return message('why.nextNotSeenYet');
  }
}
