import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ProgressView, type ShownItem } from '../../../src-main/cli/cli-output.js';

const MB = 1_000_000;

function uploading(sentBytes: number, totalBytes = 10 * MB): ShownItem {
  return {
    id: 1,
    path: '/clips/beach.mp4',
    fileName: 'beach.mp4',
    size: totalBytes,
    state: { kind: 'uploading', attempt: 0, ackedBytes: 0, sentBytes, totalBytes },
  };
}

describe('ProgressView', () => {
  it('off a terminal: a line per 10%, with the speed once measured and the time left after two seconds', () => {
    const stream = Object.assign(new PassThrough(), { isTTY: false });
    let now = 0;
    const view = new ProgressView(stream, () => now);
    for (let second = 0; second <= 4; second++) {
      now = second * 1_000;
      view.update(uploading(second * 2 * MB));
    }
    expect(String(stream.read())).toBe(
      [
        'beach.mp4: 0%',
        'beach.mp4: 20%  2.00 MB/s',
        'beach.mp4: 40%  2.00 MB/s, 3 s left',
        'beach.mp4: 60%  2.00 MB/s, 2 s left',
        'beach.mp4: 80%  2.00 MB/s, 1 s left',
        '',
      ].join('\n'),
    );
  });

  it('in a terminal: one bar per file, redrawn, and gone once the file ends', () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
    let now = 0;
    const view = new ProgressView(stream, () => now);
    view.update(uploading(0));
    now = 1_000;
    view.update(uploading(5 * MB));
    view.drop(1);
    const drawn = String(stream.read());
    expect(drawn).toContain('[############............]  50% beach.mp4  5.00 MB/s');
    // the last write clears the bar's line and draws nothing after it
    expect(drawn.endsWith('\x1b[1F\x1b[J')).toBe(true);
  });
});
