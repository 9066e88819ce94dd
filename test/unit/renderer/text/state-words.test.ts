import { afterAll, describe, expect, it } from 'vitest';
import { i18n } from '../../../../src-renderer/i18n/i18n.js';
import { describeConversion } from '../../../../src-renderer/text/file-columns.js';
import { folderStateText } from '../../../../src-renderer/text/folder-status-text.js';
import { describeFollow } from '../../../../src-renderer/text/follow-text.js';
import { jobMetaText, jobStatusText } from '../../../../src-renderer/text/import-options.js';
import { describeRow } from '../../../../src-renderer/text/queue-row-text.js';
import { serviceWord } from '../../../../src-renderer/text/service-words.js';
import {
  CONVERSION_STAGES,
  CONVERSION_STATUSES,
  REMOTE_JOB_STAGES,
  REMOTE_JOB_STATUSES,
  type RemoteJob,
} from '../../../../src-shared/api/index.js';
import { de } from '../../../../src-shared/i18n/de.js';
import { en } from '../../../../src-shared/i18n/en.js';
import type { FollowState } from '../../../../src-shared/model/conversion-follow.js';
import { FolderStateSchema, type FolderState } from '../../../../src-shared/model/folder-status.js';
import type { UploadState, UploadStateKind } from '../../../../src-shared/model/upload-state.js';
import { item, rowContext } from '../../../helpers/queue-fixtures.js';
import { remoteJob } from '../../../helpers/remote-job-fixture.js';

/**
 * No state or stage reaches the page as its raw value or as a key the
 * catalogs lack: every value of the shared schemas' enums (upload states,
 * folder states, import job statuses and stages, conversion statuses and
 * stages), through the renderer's text functions, is a sentence or a word of
 * the catalog of the page's language, in English and in German.
 */
type Tree = { readonly [key: string]: string | Tree };
type Language = 'en' | 'de';

function leaves(tree: Tree): string[] {
  return Object.values(tree).flatMap((value) => (typeof value === 'string' ? [value] : leaves(value)));
}

const WORDS: Record<Language, Set<string>> = { en: new Set(leaves(en)), de: new Set(leaves(de)) };
/** Each message as a pattern: its {{values}} may be anything, the rest is the catalog's. */
const SENTENCES: Record<Language, RegExp[]> = {
  en: [...WORDS.en].map(pattern),
  de: [...WORDS.de].map(pattern),
};

function pattern(message: string): RegExp {
  const parts = message.split(/\{\{[^}]*\}\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.+')}$`, 's');
}

/** The text is a word of the catalog, exactly. */
function expectWord(text: string, language: Language, what: string) {
  expect(WORDS[language].has(text), `${language}: ${what} → “${text}”`).toBe(true);
}

/** The text is one of the catalog's sentences, its values filled in. */
function expectSentence(text: string | null, language: Language, what: string) {
  expect(text, `${language}: ${what}`).not.toBeNull();
  expect(
    SENTENCES[language].some((sentence) => sentence.test(text!)),
    `${language}: ${what} → “${text}”`,
  ).toBe(true);
}

const NOW = Date.UTC(2025, 5, 2, 12);
const problem = { message: 'The server is busy.', code: 'SERVER_ERROR', requestId: 'req-1' };

/** One state of each kind the upload machine has (the type makes a new kind fail here until it is added). */
const UPLOAD_STATES: Record<UploadStateKind, UploadState> = {
  queued: { kind: 'queued' },
  uploading: { kind: 'uploading', attempt: 0, ackedBytes: 0, sentBytes: 400_000, totalBytes: 1_000_000 },
  finalizing: { kind: 'finalizing', attempt: 0 },
  retrying: { kind: 'retrying', attempt: 1, retryAt: NOW + 30_000, lastError: problem },
  paused: { kind: 'paused', until: null },
  done: { kind: 'done', fileId: 'f1', finishedAt: NOW },
  failed: { kind: 'failed', reason: problem },
  cancelled: { kind: 'cancelled' },
};

/** Every folder state: each kind, and each value of the enums inside one. */
function folderStates(): FolderState[] {
  const kinds: Record<FolderState['kind'], () => FolderState[]> = {
    watching: () => [{ kind: 'watching', since: NOW }],
    scanning: () => [{ kind: 'scanning', found: 12 }],
    settling: () => [{ kind: 'settling', files: 2 }],
    uploading: () => [{ kind: 'uploading', files: 3, bytesDone: 1_000, bytesTotal: 9_000, secondsLeft: 20 }],
    filesPaused: () => [{ kind: 'filesPaused', files: 1, bytesDone: 90_000_000, bytesTotal: 200_000_000 }],
    paused: () =>
      enumValues('paused', 'by').flatMap((by) => [
        { kind: 'paused', by, until: null } as FolderState,
        { kind: 'paused', by, until: NOW + 3_600_000 } as FolderState,
      ]),
    problem: () =>
      enumValues('problem', 'problem').map((kind) => ({ kind: 'problem', problem: kind, since: NOW }) as FolderState),
  };
  return Object.values(kinds).flatMap((make) => make());
}

/** The values of an enum field of one folder state, read from the schema: a value added there is tested here. */
function enumValues(kind: string, field: string): string[] {
  const option = FolderStateSchema.options.find((candidate) => candidate.shape.kind.value === kind)!;
  return (option.shape as unknown as Record<string, { options: string[] }>)[field]!.options;
}

const FOLLOW_STATES: FollowState[] = [
  { kind: 'following', polls: 0, nextPollAt: NOW, conversion: null },
  ...CONVERSION_STAGES.flatMap((stage) =>
    [null, 40].map((progress): FollowState => ({
      kind: 'following',
      polls: 0,
      nextPollAt: NOW,
      conversion: { status: 'processing', stage, progress },
    })),
  ),
  { kind: 'ready', at: NOW },
  { kind: 'failed', reason: 'the service gave up', at: NOW },
  { kind: 'uploaded', at: NOW },
  { kind: 'deleted', at: NOW },
  { kind: 'stopped', at: NOW },
];

const job = (patch: Partial<RemoteJob>) =>
  remoteJob({ status: 'running', stage: 'downloading', attempts: 1, ...patch });

afterAll(() => i18n.changeLanguage('en'));

describe.each(['en', 'de'] as const)('states and stages in %s', (language) => {
  it('says every upload state with a sentence of the catalog', async () => {
    await i18n.changeLanguage(language);
    for (const [kind, state] of Object.entries(UPLOAD_STATES)) {
      const text = describeRow(item(1, state), rowContext(NOW));
      expectSentence(text.state, language, `upload state ${kind}`);
    }
  });

  it('says every folder state with sentences of the catalog', async () => {
    await i18n.changeLanguage(language);
    for (const state of folderStates()) {
      const text = folderStateText(state, { now: NOW, clock: (ms) => `${ms}` });
      expectSentence(text.title, language, `folder state ${JSON.stringify(state)}`);
      if (text.detail !== null) expectSentence(text.detail, language, `folder state ${JSON.stringify(state)}`);
    }
  });

  it("says every import job's status and stage, and every conversion's status and stage, with words of the catalog", async () => {
    await i18n.changeLanguage(language);
    for (const status of REMOTE_JOB_STATUSES) expectWord(jobStatusText(job({ status })), language, `job ${status}`);
    for (const stage of REMOTE_JOB_STAGES) {
      expectWord(serviceWord('jobStage', stage), language, `job stage ${stage}`);
      const meta = jobMetaText(job({ stage }));
      expectSentence(meta, language, `job stage ${stage}`);
      expect(meta).toContain(serviceWord('jobStage', stage));
    }
    // a stage that repeats the status is not said twice ("Failed · stage failed")
    expect(jobMetaText(job({ status: 'failed', stage: 'failed' }))).not.toContain(serviceWord('jobStage', 'failed'));
    for (const status of CONVERSION_STATUSES) {
      expectWord(serviceWord('conversionStatus', status), language, `conversion ${status}`);
      for (const stage of CONVERSION_STAGES) {
        expectWord(serviceWord('conversionStage', stage), language, `conversion stage ${stage}`);
        const conversion = {
          status,
          stage,
          attempts: 1,
          duration_seconds: 0,
          error: null,
          updated_at: '2025-06-02 12:00:00',
        };
        expectSentence(describeConversion(conversion), language, `conversion ${status}/${stage}`);
      }
    }
  });

  it('says every state of a file after its upload with sentences of the catalog, the stage in words of it', async () => {
    await i18n.changeLanguage(language);
    for (const state of FOLLOW_STATES) {
      const text = describeFollow({
        accountId: 'a1',
        fileId: 'f1',
        name: 'clip.mp4',
        uploadId: 1,
        jobId: null,
        watchUrl: null,
        state,
        startedAt: NOW,
        updatedAt: NOW,
      });
      expectSentence(text.label, language, `follow ${JSON.stringify(state)}`);
      if (state.kind === 'following' && state.conversion) {
        expect(text.label).toContain(serviceWord('conversionStage', state.conversion.stage));
      }
    }
  });
});
