import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type * as NodeFs from 'node:fs';
import type * as NodeFsPromises from 'node:fs/promises';
import { mkdtemp, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileChangedError, READ_PIECE_BYTES, multipartFileBody } from '../../../src-main/api-client/multipart-body.js';
import { NotRegularFileError } from '../../../src-main/common/open-regular.js';

// the real readSync, which a test slows down, as a slow card would
const fs = vi.hoisted(() => ({ slowReads: 0, syncReads: 0, onNfs: false }));
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof NodeFs>();
  const readSync = (fd: number, buffer: Buffer, offset: number, length: number, position: number) => {
    fs.syncReads++;
    if (fs.slowReads > 0) {
      fs.slowReads--;
      const until = performance.now() + 30;
      while (performance.now() < until);
    }
    return real.readSync(fd, buffer, offset, length, position);
  };
  return { ...real, default: { ...real, readSync }, readSync };
});
// statfs as an NFS share answers it, when a test says the file is on one
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof NodeFsPromises>();
  const statfs = async (path: string) =>
    fs.onNfs ? { ...(await real.statfs(path)), type: 0x6969 } : real.statfs(path);
  return { ...real, default: { ...real, statfs }, statfs };
});

const MiB = 1024 * 1024;

describe('multipartFileBody', () => {
  let dir: string;
  let path: string;
  let content: Buffer;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'multipart-body-'));
    path = join(dir, 'clip.mp4');
    content = randomBytes(6 * MiB + 12_345);
    await writeFile(path, content);
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the head, exactly the range of the file and the tail, in Content-Length bytes', async () => {
    const range = { path, start: 1_000, end: 5 * MiB + 777, fileName: 'clip.mp4' };
    const body = multipartFileBody({ dzchunkindex: '1' }, range);
    const announced: number[] = [];
    const pieces: Buffer[] = [];
    // the pieces taken when the body said it was all sent (a stop then waits for the answer)
    let allSentAfter: number | null = null;
    const allSent = () => (allSentAfter = pieces.length);
    for await (const piece of body.stream((bytes) => void announced.push(bytes), allSent)) {
      pieces.push(Buffer.from(piece));
    }
    const sent = Buffer.concat(pieces);

    expect(allSentAfter).toBe(pieces.length);
    expect(sent.length).toBe(body.contentLength);
    const boundary = body.contentType.split('boundary=')[1]!;
    const head = sent.subarray(0, sent.indexOf('\r\n\r\n', sent.indexOf('filename=')) + 4);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    expect(head.toString()).toContain('name="dzchunkindex"\r\n\r\n1\r\n');
    expect(sent.subarray(head.length, sent.length - tail.length).equals(content.subarray(range.start, range.end))).toBe(
      true,
    );
    expect(sent.subarray(sent.length - tail.length).equals(tail)).toBe(true);
    expect(announced.reduce((sum, bytes) => sum + bytes, 0)).toBe(range.end - range.start);
  });

  it('a small range goes out in one piece with its head and tail, the same bytes as streamed', async () => {
    const range = { path, start: 10, end: 8_202, fileName: 'photo.jpg' };
    const body = multipartFileBody({ visibility: '1' }, range);
    const announced: number[] = [];
    const pieces: Buffer[] = [];
    for await (const piece of body.stream((bytes) => void announced.push(bytes))) pieces.push(Buffer.from(piece));
    expect(pieces).toHaveLength(1);
    expect(pieces[0]!.length).toBe(body.contentLength);
    const boundary = body.contentType.split('boundary=')[1]!;
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const head = pieces[0]!.length - tail.length - 8_192;
    expect(pieces[0]!.subarray(0, head).toString()).toContain('filename="photo.jpg"');
    expect(pieces[0]!.subarray(head, head + 8_192).equals(content.subarray(10, 8_202))).toBe(true);
    expect(announced).toEqual([8_192]);
  });

  it('a piece stays intact until the consumer has asked for two more, though buffers are reused', async () => {
    const range = { path, start: 0, end: content.length, fileName: 'clip.mp4' };
    const held: Array<{ piece: Uint8Array; offset: number }> = [];
    let offset = -1;
    for await (const piece of multipartFileBody({}, range).stream(() => undefined)) {
      // the head piece comes first, the tail last; file pieces between them from offset 0
      if (offset < 0 || offset === content.length) {
        offset = Math.max(offset, 0);
        continue;
      }
      held.push({ piece, offset });
      offset += piece.length;
      // a read that came early (none should) would land meanwhile: then look at the piece before this one
      await sleep(5);
      const previous = held.at(-2);
      if (previous) {
        const expected = content.subarray(previous.offset, previous.offset + previous.piece.length);
        expect(Buffer.from(previous.piece).equals(expected)).toBe(true);
      }
    }
    expect(held.length).toBeGreaterThan(3);
    // the pieces are views of a few reused buffers, not a fresh buffer each
    expect(new Set(held.map(({ piece }) => piece.buffer)).size).toBeLessThanOrEqual(3);
  });

  it('a body sent whole leaves its buffers to the next one; one stopped early (an abort) keeps them out', async () => {
    const range = { path, start: 0, end: content.length, fileName: 'clip.mp4' };
    const buffersOf = async (stopAfter = Infinity) => {
      const buffers = new Set<ArrayBufferLike>();
      const sent: Buffer[] = [];
      for await (const piece of multipartFileBody({}, range).stream(() => undefined)) {
        sent.push(Buffer.from(piece));
        if (piece.length === READ_PIECE_BYTES) buffers.add(piece.buffer);
        if (buffers.size >= stopAfter) break;
      }
      return { buffers, sent: Buffer.concat(sent) };
    };
    const first = await buffersOf();
    const second = await buffersOf();
    // each body has a boundary of its own: the file's bytes are what must be the same
    expect(second.sent.includes(content)).toBe(true);
    expect([...second.buffers].every((buffer) => first.buffers.has(buffer))).toBe(true);
    const stopped = await buffersOf(2);
    const after = await buffersOf();
    expect([...after.buffers].some((buffer) => stopped.buffers.has(buffer))).toBe(false);
    expect(after.sent.includes(content)).toBe(true);
  });

  it('bodies sent at once (chunks in flight) never share a buffer', async () => {
    const ranges = [0, 2 * MiB, 4 * MiB].map((start) => ({ path, start, end: start + 2 * MiB, fileName: 'clip.mp4' }));
    const streams = ranges.map((range) => multipartFileBody({}, range).stream(() => undefined));
    const sent = ranges.map(() => [] as Buffer[]);
    for (let done = 0; done < streams.length;) {
      done = 0;
      for (const [i, stream] of streams.entries()) {
        const next = await stream.next();
        if (next.done) done++;
        else sent[i]!.push(Buffer.from(next.value));
      }
    }
    for (const [i, range] of ranges.entries()) {
      expect(Buffer.concat(sent[i]!).includes(content.subarray(range.start, range.end))).toBe(true);
    }
  });

  it('a file written to while its part was read fails before the closing boundary, never sent whole', async () => {
    const { size, mtimeMs } = await stat(path);
    const body = multipartFileBody(
      {},
      { path, start: 0, end: size, fileName: 'clip.mp4', unchanged: { size, mtimeMs } },
    );
    const sent: Buffer[] = [];
    const read = async () => {
      for await (const piece of body.stream(() => undefined)) {
        sent.push(Buffer.from(piece));
        // an editor saves in place once the first MiB is out: bytes already sent change, the size does not
        if (sent.length === 2) await writeFile(path, randomBytes(MiB), { flag: 'r+' });
      }
    };
    await expect(read()).rejects.toBeInstanceOf(FileChangedError);
    const boundary = body.contentType.split('boundary=')[1]!;
    expect(Buffer.concat(sent).includes(`--${boundary}--`)).toBe(false);

    // a small file, read whole: checked once read, before its one piece goes
    await writeFile(path, 'small');
    const before = await stat(path);
    await writeFile(path, 'small, then more');
    const small = multipartFileBody(
      {},
      { path, start: 0, end: 5, fileName: 'note.txt', unchanged: { size: before.size, mtimeMs: before.mtimeMs } },
    );
    const pieces: Uint8Array[] = [];
    await expect(
      (async () => {
        for await (const piece of small.stream(() => undefined)) pieces.push(piece);
      })(),
    ).rejects.toBeInstanceOf(FileChangedError);
    expect(pieces).toEqual([]);
  });

  /** The whole body of `path` as sent; a first read has let its folder's file system be known (file-calls.ts). */
  const readBody = async () => {
    const pieces: Buffer[] = [];
    const range = { path, start: 0, end: content.length, fileName: 'clip.mp4' };
    for await (const piece of multipartFileBody({}, range).stream(() => undefined)) pieces.push(Buffer.from(piece));
    return Buffer.concat(pieces);
  };

  it.skipIf(process.platform !== 'linux')(
    'reads a file on a local disk on the event loop, and reads that proved slow hand the rest of them to the thread pool',
    async () => {
      await readBody();
      fs.syncReads = 0;
      expect((await readBody()).includes(content)).toBe(true);
      expect(fs.syncReads).toBe(Math.ceil(content.length / READ_PIECE_BYTES));

      fs.syncReads = 0;
      fs.slowReads = 2;
      expect((await readBody()).includes(content)).toBe(true);
      // the first two pieces' reads held the event loop, as a card that reads slowly does; the others were read in the pool
      expect(fs.syncReads).toBe(2);
    },
  );

  it.skipIf(process.platform !== 'linux')(
    'a file on a network share is read in the thread pool from the first byte: a share that hangs never holds the event loop',
    async () => {
      fs.syncReads = 0;
      fs.onNfs = true;
      try {
        await readBody();
        expect((await readBody()).includes(content)).toBe(true);
        expect(fs.syncReads).toBe(0);
      } finally {
        fs.onNfs = false;
      }
    },
  );

  it.skipIf(process.platform !== 'linux')(
    'refuses a FIFO put in the file’s place at once: its open would wait for a writer, on the event loop for ever',
    async () => {
      await readBody();
      await rm(path);
      execFileSync('mkfifo', [path]);
      const small = multipartFileBody({}, { path, start: 0, end: 100_000, fileName: 'clip.mp4' });
      await expect(small.whole(() => undefined)).rejects.toBeInstanceOf(NotRegularFileError);
      const read = async () => {
        for await (const piece of multipartFileBody({}, { path, start: 0, end: content.length, fileName: 'a' }).stream(
          () => undefined,
        ))
          void piece;
      };
      await expect(read()).rejects.toBeInstanceOf(NotRegularFileError);
    },
  );

  it('a file that shrank under the upload fails with FileChangedError instead of sending short', async () => {
    const body = multipartFileBody({}, { path, start: 0, end: content.length, fileName: 'clip.mp4' });
    await truncate(path, 2 * MiB);
    const read = async () => {
      for await (const piece of body.stream(() => undefined)) void piece;
    };
    await expect(read()).rejects.toBeInstanceOf(FileChangedError);
    // a small file, read in one go
    const small = multipartFileBody({}, { path, start: 0, end: 100_000, fileName: 'photo.jpg' });
    await truncate(path, 50_000);
    await expect(
      (async () => {
        for await (const piece of small.stream(() => undefined)) void piece;
      })(),
    ).rejects.toBeInstanceOf(FileChangedError);
  });
});
