import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeState } from '../../../src-main/cli/cli-output.js';
import { ProcWriterProbe } from '../../../src-main/uploads/file-writers.js';
import { WRITER_RECHECK_MS } from '../../../src-main/uploads/writer-waits.js';
import { sha256File, sha256Url } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { holdOpen, type OpenWriter } from '../../helpers/open-writer.js';
import { openWatchedFolderBench, type WatchedFolderBench } from '../../helpers/watched-folder.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Recordings that pause longer than the settle window (docs/uploads.md,
 * Files still being written): the folder's own settle window, and on Linux a
 * file a process holds open for writing is not started.
 */
describe('a recording in a watched folder', () => {
  let bench: WatchedFolderBench;
  const writers: OpenWriter[] = [];

  beforeEach(async () => {
    bench = await openWatchedFolderBench('media-sync-recording-');
  });

  afterEach(async () => {
    await Promise.all(writers.splice(0).map((writer) => writer.close()));
    await bench.close();
  });

  const at = (name: string) => join(bench.folder.path, name);
  const uploads = () => bench.server.server.uploadLog.entries();

  it.skipIf(process.platform !== 'linux')(
    'is not started while a program holds it open for writing: the queue, the folder and the CLI say so; once closed, it goes once, whole',
    async () => {
      const { engine, watched } = await bench.watch({}, { settleMs: 300 });
      const recorder = await holdOpen(at('recording.mp4'));
      writers.push(recorder);
      await recorder.write('the first minutes;');
      // its size and mtime then stay the same past the settle window: the folder queues it, the queue holds it
      const waiting = await waitFor(
        () => engine.uploads.list().find((item) => item.state.kind === 'queued' && item.state.waiting),
        10_000,
        'the recording held back',
      );
      expect(describeState(waiting)).toBe('queued: a program is still writing this file');
      await waitFor(() => (engine.folderStatus.status(watched.id)?.state.kind === 'settling' ? true : undefined));
      expect(engine.folderStatus.status(watched.id)!.state).toEqual({ kind: 'settling', files: 1 });
      // looked at again and again meanwhile: still held, still not started
      await pause(2 * WRITER_RECHECK_MS + 500);
      expect(uploads()).toEqual([]);
      expect(engine.uploads.get(waiting.id)!.state).toEqual({ kind: 'queued', waiting: 'beingWritten' });

      await recorder.write(' the last minutes.');
      await recorder.close();
      await bench.uploadsDone(engine, 1);
      await engine.sync.whenSettled();
      await engine.queue.whenIdle();
      expect(uploads()).toHaveLength(1);
      const [file] = await bench.serverFiles();
      expect(await sha256Url(`${bench.server.fileHost}/${file!.id}/file`)).toBe(await sha256File(at('recording.mp4')));
      expect(await readFile(at('recording.mp4'), 'utf8')).toBe('the first minutes; the last minutes.');
    },
  );

  it('is cancelled, never started, when the person cancels it while its writers are looked for', async () => {
    let answer!: (writer: null) => void;
    let looks = 0;
    const writers = {
      // the first look waits for the test; any later one answers "no writer" at once
      writerOf: () => (++looks === 1 ? new Promise<null>((resolve) => (answer = resolve)) : Promise.resolve(null)),
    };
    const { engine } = await bench.watch({}, { settleMs: 300, writers });
    await writeFile(at('cancelled.mp4'), 'not wanted');
    await waitFor(() => (looks === 1 ? true : undefined), 10_000, 'the look for writers');
    const [item] = engine.uploads.list();
    const cancelling = engine.queue.cancel(item!.id);
    answer(null);
    expect((await cancelling)!.state).toEqual({ kind: 'cancelled' });
    // a second look would mean it went back in line: none comes, nothing is sent
    await pause(500);
    await engine.queue.whenIdle();
    expect([looks, uploads().length, engine.uploads.get(item!.id)!.state.kind]).toEqual([1, 0, 'cancelled']);
  });

  it('waits the folder’s own settle window: a recorder that closes the file between flushes 1.5 s apart is sent once', async () => {
    // the app's default here is 300 ms, which each of the recorder's pauses outlasts
    const { engine } = await bench.watch({ settleSeconds: 4 }, { settleMs: 300 });
    await writeFile(at('flushed.mp4'), 'take one;');
    for (const flush of [' take two;', ' take three.']) {
      await pause(1_500);
      await appendFile(at('flushed.mp4'), flush);
    }
    await bench.uploadsDone(engine, 1);
    await engine.sync.whenSettled();
    await engine.queue.whenIdle();
    expect(uploads()).toHaveLength(1);
    expect(uploads()[0]!.bytes).toBe('take one; take two; take three.'.length);
  });

  it.skipIf(process.platform !== 'linux')(
    'the /proc probe finds a process that holds the file open for writing, not one that reads it, and none once it closed',
    async () => {
      const path = join(bench.folder.path, 'clip.mp4');
      await writeFile(path, 'recorded');
      // a fresh walk for each look: a walk serves the looks within cacheMs
      const probe = new ProcWriterProbe({ cacheMs: 0 });
      const reader = await holdOpen(path, 'r');
      writers.push(reader);
      expect(await probe.writerOf(path)).toBeNull();
      const writer = await holdOpen(path, 'a');
      writers.push(writer);
      const found = await probe.writerOf(path);
      expect(found).toMatchObject({ pid: writer.child.pid });
      // asked about the writer it found: still held
      expect(await probe.writerOf(path, found)).toEqual(found);
      await writer.close();
      expect(await probe.writerOf(path, found)).toBeNull();
      expect(await probe.writerOf(join(bench.folder.path, 'missing.mp4'))).toBeNull();
    },
  );

  it.skipIf(process.platform !== 'linux')(
    'one walk serves the files queued before it, never a file queued after it (its writer may have opened it since)',
    async () => {
      const before = join(bench.folder.path, 'before.mp4');
      const after = join(bench.folder.path, 'after.mp4');
      await writeFile(before, 'recorded');
      await writeFile(after, 'recorded');
      const probe = new ProcWriterProbe({ cacheMs: 0 });
      const queuedBefore = Date.now() - 1;
      expect(await probe.writerOf(before, null, queuedBefore)).toBeNull();
      // opened for writing after that walk, then queued: the walk knows nothing of it, so a new one looks
      const writer = await holdOpen(after, 'a');
      writers.push(writer);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await probe.writerOf(after, null, Date.now())).toMatchObject({ pid: writer.child.pid });
    },
  );

  it.skipIf(process.platform !== 'linux')(
    'the /proc probe gives up without an answer once its budget is spent, rather than hold a start up',
    async () => {
      const path = join(bench.folder.path, 'clip.mp4');
      await writeFile(path, 'recorded');
      const writer = await holdOpen(path, 'a');
      writers.push(writer);
      expect(await new ProcWriterProbe({ cacheMs: 0 }).writerOf(path)).not.toBeNull();
      expect(await new ProcWriterProbe({ cacheMs: 0, maxProcesses: 0 }).writerOf(path)).toBeNull();
    },
  );
});
