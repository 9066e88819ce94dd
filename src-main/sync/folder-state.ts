import type { FolderState } from '../../src-shared/model/folder-status.js';
import type { QueueHold } from '../../src-shared/model/queue-hold.js';
import type { QueuePause } from '../../src-shared/model/queue-pause.js';
import type { FolderTrouble } from './sync-service.js';

/** Why a folder's account cannot upload (Engine.accountProblem): a refused token, or signed out of the app. */
export type AccountProblem =
  { problem: 'signedOut' } | { problem: 'accountGone'; account: { baseUrl: string; username: string | null } | null };

/** What is known of one watched folder at a moment: the input of `folderState`. */
export interface FolderFacts {
  /**
   * the folder's own trouble (missing, not connected, unreadable, its full disk), else its
   * account's (a refused token, signed out), else null
   */
  trouble: FolderTrouble | (AccountProblem & { since: number }) | null;
  /** the folder's own pause (folders:pause) */
  paused: boolean;
  /** the person's pause of the whole queue, null when not paused */
  queuePause: QueuePause | null;
  /** the app's hold of the whole queue (its own full disk, schedule, battery, …) */
  hold: QueueHold | null;
  scan: { found: number } | null;
  /** files being written, outside a scan */
  settling: number;
  /** the folder's items waiting or being sent, null when none */
  uploading: { files: number; bytesDone: number; bytesTotal: number; secondsLeft: number | null } | null;
  /** the folder's items the person paused (their bytes kept), null when none */
  pausedFiles: { files: number; bytesDone: number; bytesTotal: number } | null;
  /** since when the folder has been up to date (epoch ms): kept by the caller across calls */
  upToDateSince: number;
}

/**
 * A folder's state in the words of FolderStateSchema, the most pressing
 * first: a problem a person must act on (the folder's own, then the app's
 * full disk, which holds every folder), then what holds the folder (its own
 * pause, the queue's pause, the app's hold), then its work (scanning,
 * settling, uploading), then files the person paused, else "watching". A
 * pause wins over work because nothing of the folder moves while it holds,
 * even if there is work.
 */
export function folderState(facts: FolderFacts): FolderState {
  const { trouble, hold, uploading } = facts;
  if (trouble) {
    const { problem, since } = trouble;
    return 'account' in trouble
      ? { kind: 'problem', problem, since, account: trouble.account }
      : { kind: 'problem', problem, since };
  }
  if (hold?.reason === 'dataDiskFull') return { kind: 'problem', problem: 'dataDiskFull', since: hold.since };
  if (facts.paused) return { kind: 'paused', by: 'folder', until: null };
  if (facts.queuePause) return { kind: 'paused', by: 'queue', until: facts.queuePause.until };
  if (hold) return { kind: 'paused', by: hold.reason, until: 'until' in hold ? hold.until : null };
  if (facts.scan) return { kind: 'scanning', found: facts.scan.found };
  if (facts.settling > 0) return { kind: 'settling', files: facts.settling };
  if (uploading && uploading.files > 0) return { kind: 'uploading', ...uploading };
  // not up to date while a file waits for the person to resume it
  if (facts.pausedFiles && facts.pausedFiles.files > 0) return { kind: 'filesPaused', ...facts.pausedFiles };
  return { kind: 'watching', since: facts.upToDateSince };
}
