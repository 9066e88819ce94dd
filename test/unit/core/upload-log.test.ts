import { describe, expect, it } from 'vitest';
import type { UploadState } from '../../../src-shared/model/upload-state.js';
import { UPLOADED_SUMMARY_MS, UploadLog } from '../../../src-main/core/engine-log.js';
import { FakeClock, flushMicrotasks } from '../../helpers/fake-clock.js';
import { memoryLog } from '../../helpers/memory-log.js';
import { uploadItem } from '../../helpers/queue-fixtures.js';

/** A file of a watched folder's: the log names it by its path. */
const upload = (id: number, state: UploadState) =>
  uploadItem(id, state, { path: `/photos/photo-${id}.jpg`, fileName: `photo-${id}.jpg`, folderId: 1 });

const done = (id: number) => upload(id, { kind: 'done', fileId: `F${id}`, finishedAt: 1 });
const problem = { message: 'The service refused the file.', code: 'UNSUPPORTED_MEDIA', requestId: 'r-1' };

describe('UploadLog', () => {
  it('says a burst of finished files as one line with their count and the last, and each failure at once', async () => {
    const log = memoryLog();
    const clock = new FakeClock();
    const uploads = new UploadLog(log, clock);
    for (let id = 1; id <= 40; id++) uploads.changed(done(id));
    uploads.changed(upload(41, { kind: 'failed', reason: problem }));
    uploads.changed(upload(42, { kind: 'uploading', attempt: 0, ackedBytes: 0, sentBytes: 0, totalBytes: 8_192 }));
    expect(log.lines).toEqual([
      'WARN Upload of /photos/photo-41.jpg failed: The service refused the file. (UNSUPPORTED_MEDIA, request id r-1)',
    ]);

    await clock.advance(UPLOADED_SUMMARY_MS);
    await flushMicrotasks();
    expect(log.lines.slice(1)).toEqual(['INFO Uploaded 40 files, the last /photos/photo-40.jpg (file id F40).']);

    // the next file alone is named as one
    uploads.changed(done(43));
    await clock.advance(UPLOADED_SUMMARY_MS);
    await flushMicrotasks();
    expect(log.lines.slice(2)).toEqual(['INFO Uploaded /photos/photo-43.jpg (file id F43).']);
  });

  it('says the files done since the last line when the app stops', () => {
    const log = memoryLog();
    const uploads = new UploadLog(log, new FakeClock());
    uploads.changed(done(1));
    uploads.changed(done(2));
    uploads.dispose();
    expect(log.lines).toEqual(['INFO Uploaded 2 files, the last /photos/photo-2.jpg (file id F2).']);
  });
});
