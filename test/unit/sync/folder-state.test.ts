import { describe, expect, it } from 'vitest';
import { folderState, type FolderFacts } from '../../../src-main/sync/folder-state.js';
import { FolderStateSchema } from '../../../src-shared/model/folder-status.js';
import { QUEUE_HOLD_REASONS, type QueueHold } from '../../../src-shared/model/queue-hold.js';

const idle: FolderFacts = {
  trouble: null,
  paused: false,
  queuePause: null,
  hold: null,
  scan: null,
  settling: 0,
  uploading: null,
  pausedFiles: null,
  upToDateSince: 1_000,
};
const uploading = { files: 3, bytesDone: 10, bytesTotal: 30, secondsLeft: 4 };
const busy: FolderFacts = { ...idle, scan: { found: 12 }, settling: 2, uploading };

describe('folderState: the most pressing state of a folder wins', () => {
  it('is up to date since the time it was given, with nothing to do', () => {
    expect(folderState(idle)).toEqual({ kind: 'watching', since: 1_000 });
  });

  it('scans before it settles, and settles before it uploads', () => {
    expect(folderState(busy)).toEqual({ kind: 'scanning', found: 12 });
    expect(folderState({ ...busy, scan: null })).toEqual({ kind: 'settling', files: 2 });
    expect(folderState({ ...busy, scan: null, settling: 0 })).toEqual({ kind: 'uploading', ...uploading });
  });

  it('is not up to date while a file of it is paused halfway, and says so with its bytes; other work first', () => {
    const pausedFiles = { files: 1, bytesDone: 90_000_000, bytesTotal: 200_000_000 };
    expect(folderState({ ...idle, pausedFiles })).toEqual({ kind: 'filesPaused', ...pausedFiles });
    expect(folderState({ ...busy, scan: null, settling: 0, pausedFiles })).toEqual({ kind: 'uploading', ...uploading });
    expect(folderState({ ...idle, pausedFiles, paused: true })).toEqual({ kind: 'paused', by: 'folder', until: null });
  });

  it('is paused by the folder, then by the person, then by the app, over any work', () => {
    const held: FolderFacts = { ...busy, hold: { reason: 'schedule', until: 5_000 } };
    expect(folderState(held)).toEqual({ kind: 'paused', by: 'schedule', until: 5_000 });
    expect(folderState({ ...busy, hold: { reason: 'battery' } })).toEqual({
      kind: 'paused',
      by: 'battery',
      until: null,
    });
    expect(folderState({ ...held, queuePause: { until: null } })).toEqual({ kind: 'paused', by: 'queue', until: null });
    expect(folderState({ ...held, queuePause: { until: 9_000 } })).toEqual({
      kind: 'paused',
      by: 'queue',
      until: 9_000,
    });
    expect(folderState({ ...held, queuePause: { until: 9_000 }, paused: true })).toEqual({
      kind: 'paused',
      by: 'folder',
      until: null,
    });
  });

  it("states the app's own full disk as every folder's problem, over any pause, after the folder's own problem", () => {
    const full = { reason: 'dataDiskFull', since: 5, waiting: 30 } as const;
    const everything: FolderFacts = { ...busy, paused: true, queuePause: { until: null }, hold: full };
    expect(folderState(everything)).toEqual({ kind: 'problem', problem: 'dataDiskFull', since: 5 });
    expect(folderState({ ...everything, trouble: { problem: 'notConnected', since: 9 } })).toEqual({
      kind: 'problem',
      problem: 'notConnected',
      since: 9,
    });
  });

  it('states a problem over everything else', () => {
    const everything: FolderFacts = { ...busy, paused: true, queuePause: { until: null }, hold: { reason: 'battery' } };
    expect(folderState({ ...everything, trouble: { problem: 'missing', since: 7 } })).toEqual({
      kind: 'problem',
      problem: 'missing',
      since: 7,
    });
    expect(folderState({ ...idle, trouble: { problem: 'signedOut', since: 8 } })).toEqual({
      kind: 'problem',
      problem: 'signedOut',
      since: 8,
    });
    const account = { baseUrl: 'http://127.0.0.1:8790/api/v1', username: 'demo' };
    expect(folderState({ ...idle, trouble: { problem: 'accountGone', account, since: 9 } })).toEqual({
      kind: 'problem',
      problem: 'accountGone',
      since: 9,
      account,
    });
  });

  it("says every hold of the app's (QueueHold) in the folder's own state, as the contract takes it", () => {
    const holds: QueueHold[] = [
      { reason: 'schedule', until: 5 },
      { reason: 'battery' },
      { reason: 'metered' },
      { reason: 'dataDiskFull', since: 5, waiting: 1 },
    ];
    expect(holds.map((hold) => hold.reason).sort()).toEqual([...QUEUE_HOLD_REASONS].sort());
    for (const hold of holds) expect(FolderStateSchema.parse(folderState({ ...busy, hold }))).toBeTruthy();
  });
});
