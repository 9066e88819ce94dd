import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FollowList } from '../../../../src-renderer/views/activity-panel.js';
import type { ConversionFollow, FollowState } from '../../../../src-shared/model/conversion-follow.js';

const NOW = Date.UTC(2025, 0, 1, 12);

function follow(fileId: string, name: string, state: FollowState, watchUrl: string | null = null): ConversionFollow {
  return {
    accountId: 'a1',
    fileId,
    name,
    uploadId: null,
    jobId: null,
    watchUrl,
    state,
    startedAt: NOW,
    updatedAt: NOW,
  };
}

describe('the Activity panel’s files', () => {
  it('shows one line per file, uploaded → converting → ready to watch, and opens only a ready one', () => {
    const html = renderToStaticMarkup(
      <FollowList
        now={NOW}
        follows={[
          follow('f3', 'ready.mp4', { kind: 'ready', at: NOW }, 'http://files.test/f3/watch'),
          follow('f2', 'busy.mp4', {
            kind: 'following',
            polls: 0,
            nextPollAt: NOW,
            conversion: { status: 'processing', stage: 'transcoding', progress: null },
          }),
          follow('f1', 'notes.txt', { kind: 'uploaded', at: NOW }),
        ]}
      />,
    );
    const lines = [...html.matchAll(/<li[^>]*>.*?<\/li>/g)].map((match) => match[0]);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('ready.mp4');
    expect(lines[0]).toContain('Ready to watch');
    expect(lines[0]).toContain('href="http://files.test/f3/watch"');
    expect(lines[1]).toContain('Converting · transcoding');
    expect(lines[1]).not.toContain('href=');
    expect(lines[2]).toContain('Uploaded');
    expect(lines[2]).not.toContain('href=');
  });
});
