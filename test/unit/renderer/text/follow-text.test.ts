import { describe, expect, it } from 'vitest';
import { describeFollow } from '../../../../src-renderer/text/follow-text.js';
import { describeRow } from '../../../../src-renderer/text/queue-row-text.js';
import type { ConversionFollow, FollowState } from '../../../../src-shared/model/conversion-follow.js';
import { item, rowContext } from '../../../helpers/queue-fixtures.js';

const NOW = Date.UTC(2025, 0, 1, 12);

function follow(state: FollowState, watchUrl: string | null = null): ConversionFollow {
  return {
    accountId: 'a1',
    fileId: 'f1',
    name: 'clip-6.mp4',
    uploadId: 6,
    jobId: null,
    watchUrl,
    state,
    startedAt: NOW,
    updatedAt: NOW,
  };
}

const converting = (stage: string, progress: number | null = null): FollowState => ({
  kind: 'following',
  polls: 0,
  nextPollAt: NOW + 10_000,
  conversion: { status: 'processing', stage, progress },
});

describe('a file after its upload, in words', () => {
  it('goes uploaded → converting (with the stage, and a progress when given) → ready to watch', () => {
    const steps: FollowState[] = [
      { kind: 'following', polls: 0, nextPollAt: NOW, conversion: null },
      converting('transcoding'),
      converting('transcoding', 40),
      { kind: 'ready', at: NOW },
    ];
    expect(steps.map((state) => describeFollow(follow(state, 'http://files/f1/watch')).label)).toEqual([
      'Uploaded',
      'Converting · transcoding',
      `Converting · transcoding · ${new Intl.NumberFormat([], { style: 'percent' }).format(0.4)}`,
      'Ready to watch',
    ]);
    expect(describeFollow(follow({ kind: 'ready', at: NOW }, 'http://files/f1/watch')).watchable).toBe(true);
  });

  it('says why a file ends without a watch page', () => {
    expect(describeFollow(follow({ kind: 'failed', reason: 'No video stream.', at: NOW }))).toMatchObject({
      label: 'Conversion failed',
      detail: 'No video stream.',
      watchable: false,
    });
    expect(describeFollow(follow({ kind: 'uploaded', at: NOW })).detail).toBe(
      'Not a video: there is nothing to convert.',
    );
    expect(describeFollow(follow({ kind: 'deleted', at: NOW })).label).toBe('Deleted from the service');
  });
});

describe('the queue row of a done upload', () => {
  const context = rowContext(NOW);
  const done = { kind: 'done', fileId: 'f1', finishedAt: NOW } as const;

  it('shows the conversion stage, then "Ready to watch" with Copy watch link and Open', () => {
    const row = (state: FollowState, url: string | null = null) =>
      describeRow(item(6, done, { afterUpload: follow(state, url) }), context);
    expect(row(converting('transcoding'))).toMatchObject({ state: 'Converting · transcoding', tone: 'active' });
    expect(row({ kind: 'ready', at: NOW }, 'http://files/f1/watch')).toMatchObject({
      state: 'Ready to watch',
      tone: 'ok',
      actions: ['copyWatchLink', 'openWatch'],
    });
    expect(row({ kind: 'failed', reason: 'No video stream.', at: NOW })).toMatchObject({
      state: 'Conversion failed',
      problem: { message: 'No video stream.', requestId: null },
      actions: ['copyLink'],
    });
  });

  it('stays "Done" while nothing is known yet, and for a file that is not a video', () => {
    const before = describeRow(item(6, done), context);
    expect(before.state).toBe('Done');
    const checking = follow({ kind: 'following', polls: 0, nextPollAt: NOW, conversion: null });
    expect(describeRow(item(6, done, { afterUpload: checking }), context)).toEqual(before);
    expect(describeRow(item(6, done, { afterUpload: follow({ kind: 'uploaded', at: NOW }) }), context)).toEqual(before);
  });
});
