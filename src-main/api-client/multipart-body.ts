import { fileCalls } from '../common/file-calls.js';
import { openRegularFile } from '../common/open-regular.js';
import { nodeCrypto } from '../common/lazy-builtins.js';

/** A byte range of a file on disk, read lazily: a 90 MB chunk is never held in memory. */
export interface FileRange {
  path: string;
  /** first byte, inclusive */
  start: number;
  /** last byte, exclusive */
  end: number;
  /** the multipart `filename`: the original name, identical in every chunk */
  fileName: string;
  /**
   * The file's size and mtime as the upload (re)started: checked once the
   * range is read, before the body's closing boundary, so a file written to
   * while it was sent never lands on the service stale or torn.
   */
  unchanged?: { size: number; mtimeMs: number };
}

export interface MultipartBody {
  contentType: string;
  contentLength: number;
  /**
   * A body of a small range (up to WHOLE_BODY_BYTES), read and checked as
   * `stream` reads and checks it, as one buffer: the request writes it at
   * once, with no iteration of pieces. `beforePiece` runs once, for the
   * file's bytes. Null for a larger range: it is streamed.
   */
  whole(beforePiece: (bytes: number) => Promise<void> | void): Promise<Uint8Array> | null;
  /**
   * Yields the body; `beforePiece` runs before each piece of the file
   * (bandwidth limit, progress), `allSent` once the consumer asks for more
   * after the closing boundary. A yielded piece is a view of a reused buffer:
   * it stays intact until the consumer has asked for two more pieces, then it
   * is overwritten. An HTTP writer that waits for the socket to drain before
   * asking for the next piece (undici's does: a piece is larger than the
   * socket's high-water mark) has long sent it by then.
   */
  stream(beforePiece: (bytes: number) => Promise<void> | void, allSent?: () => void): AsyncGenerator<Uint8Array>;
}

/**
 * The file part is read in pieces of this size, each just before it is sent,
 * on the event loop where that is safe (a local disk of Linux: file-calls.ts):
 * the bytes are still in the CPU's cache when
 * the socket copies them, as in curl's read-then-send. Read in the thread
 * pool (FileHandle.read) a 1 GB upload took ~0.46 s of CPU against
 * curl's 0.27 (1 chunk in flight; 0.64 against 0.36 with 3), on the event
 * loop 0.39 (0.48): the hop to a pool thread and back per piece, and the
 * piece written by one core and sent by another, cost more than the read.
 * 1 MiB pieces read that way cost more (0.58 against 0.51 in one run: two
 * of them no longer fit a core's cache beside the socket's), 128 KiB and
 * 512 KiB about the same.
 */
export const READ_PIECE_BYTES = 256 * 1024;
/** the piece being sent and the one before it */
const RING_SIZE = 2;
/**
 * Read buffers of bodies that were sent whole, for the next bodies (three
 * chunks in flight). Three new 1 MiB buffers per 90 MB chunk made V8
 * collect its old generation every couple of gigabytes (it counts external
 * memory): with them kept, the client's user CPU per uploaded GB about
 * halved (0.16-0.30 s to 0.08-0.14 s). A body stopped early (an abort)
 * keeps its buffers out: the writer may not be done with its last piece.
 */
const spareBuffers: Buffer[] = [];
const MAX_SPARE_BUFFERS = 3 * RING_SIZE;
/**
 * A range up to this size goes out as one piece, its head and tail in the
 * same buffer: one socket write instead of three, for
 * the photos a camera drops by the thousand.
 */
export const WHOLE_BODY_BYTES = 256 * 1024;
/**
 * Boundaries: random per process, counted per body. As unlikely in a file as
 * 12 random bytes per body, which cost a call into the random source per
 * file (1 % of a small file's CPU).
 */
let boundaryPrefix: string | undefined;
let bodiesMade = 0;

/**
 * A `multipart/form-data` body with text fields and one `file` part streamed
 * from disk, with an exact Content-Length (no chunked transfer encoding, which
 * some edge proxies refuse for uploads). Built by hand rather than with
 * FormData so that every piece passes the bandwidth limiter and the progress
 * counter, and so that memory stays at two small buffers whatever the chunk
 * size. The buffers are reused, not allocated per piece: a fresh 1 MiB buffer
 * per piece (a read stream's way) cost page faults and garbage collection,
 * about a third of the client's CPU per uploaded byte; and a body sent whole
 * leaves them to the next one (`spareBuffers`).
 */
export function multipartFileBody(fields: Record<string, string>, file: FileRange): MultipartBody {
  boundaryPrefix ??= nodeCrypto().randomBytes(12).toString('hex');
  const boundary = `----media-sync-${boundaryPrefix}-${(bodiesMade++).toString(36)}`;
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${escapeQuoted(name)}"\r\n\r\n${value}\r\n`;
  }
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${escapeQuoted(file.fileName)}"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n';
  const headBytes = Buffer.from(head, 'utf8');
  const tailBytes = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  const fileBytes = file.end - file.start;
  const whole = async (beforePiece: (bytes: number) => Promise<void> | void) => {
    const body = await wholeBody(file, headBytes, tailBytes);
    await assertUnchanged(file);
    await beforePiece(fileBytes);
    return body;
  };
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength: headBytes.length + fileBytes + tailBytes.length,
    whole: (beforePiece) => (fileBytes <= WHOLE_BODY_BYTES ? whole(beforePiece) : null),
    // one generator for the whole body, the file's pieces read in it: each generator between the file and
    // the socket cost a round of promises per piece
    async *stream(beforePiece, allSent) {
      if (fileBytes <= WHOLE_BODY_BYTES) {
        yield await whole(beforePiece);
        allSent?.();
        return;
      }
      yield headBytes;
      // a piece's buffer is read into again two pieces later
      const ring: Buffer[] = [];
      const { fd, calls } = await openRegularFile(file.path, { followLink: true });
      try {
        for (let index = 0, position = file.start; position < file.end; index++) {
          const buffer = (ring[index % RING_SIZE] ??= spareBuffers.pop() ?? Buffer.allocUnsafe(READ_PIECE_BYTES));
          const length = Math.min(buffer.length, file.end - position);
          // a read that proved slow sends the rest of them to the thread pool (file-calls.ts)
          const bytesRead = await calls.read(fd, buffer, 0, length, position);
          // the file shrank under us: sending fewer bytes than announced would hang the request
          if (bytesRead === 0) throw new FileChangedError(file.path);
          position += bytesRead;
          await beforePiece(bytesRead);
          yield buffer.subarray(0, bytesRead);
        }
      } finally {
        await calls.close(fd);
      }
      // every byte of the part is on its way: without the closing boundary the service makes nothing of them
      await assertUnchanged(file);
      yield tailBytes;
      // asked for more after the tail, the consumer is done with every piece: the next body may read into the buffers
      spareBuffers.push(...ring.slice(0, MAX_SPARE_BUFFERS - spareBuffers.length));
      allSent?.();
    },
  };
}

/** The head, the file range and the tail in one buffer, read in one go. */
async function wholeBody(file: FileRange, head: Buffer, tail: Buffer): Promise<Buffer> {
  const fileBytes = file.end - file.start;
  const body = Buffer.allocUnsafe(head.length + fileBytes + tail.length);
  head.copy(body, 0);
  if (fileBytes > 0) {
    // never blocking on a FIFO put in the file's place: on the event loop, that would hold the whole app
    const { fd, calls } = await openRegularFile(file.path, { followLink: true });
    try {
      for (let read = 0; read < fileBytes;) {
        const bytesRead = await calls.read(fd, body, head.length + read, fileBytes - read, file.start + read);
        // the file shrank under us: sending fewer bytes than announced would hang the request
        if (bytesRead === 0) throw new FileChangedError(file.path);
        read += bytesRead;
      }
    } finally {
      await calls.close(fd);
    }
  }
  tail.copy(body, head.length + fileBytes);
  return body;
}

/** Throws FileChangedError when the file's size or mtime is no longer what the upload started from (or it is gone). */
async function assertUnchanged(file: FileRange): Promise<void> {
  const expected = file.unchanged;
  if (!expected) return;
  const now = await fileCalls.stat(file.path).catch(() => null);
  if (now?.size !== expected.size || now.mtimeMs !== expected.mtimeMs) throw new FileChangedError(file.path);
}

/** The file on disk no longer matches what the upload started with. */
export class FileChangedError extends Error {
  constructor(readonly path: string) {
    super(`The file changed while it was being uploaded: ${path}`);
    this.name = 'FileChangedError';
  }
}

/** WHATWG form encoding of a quoted header parameter: `"` and line breaks are percent-encoded. */
function escapeQuoted(value: string): string {
  return value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
