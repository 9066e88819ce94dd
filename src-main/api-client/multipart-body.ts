import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** A byte range of a file on disk, read lazily: a 90 MB chunk is never held in memory. */
export interface FileRange {
  path: string;
  /** first byte, inclusive */
  start: number;
  /** last byte, exclusive */
  end: number;
  /** the multipart `filename`: the original name, identical in every chunk */
  fileName: string;
}

export interface MultipartBody {
  contentType: string;
  contentLength: number;
  /** yields the body; `beforePiece` runs before each piece of the file (bandwidth limit, progress) */
  stream(beforePiece: (bytes: number) => Promise<void> | void): AsyncGenerator<Uint8Array>;
}

const READ_PIECE_BYTES = 1024 * 1024;

/**
 * A `multipart/form-data` body with text fields and one `file` part streamed
 * from disk, with an exact Content-Length (no chunked transfer encoding, which
 * some edge proxies refuse for uploads). Built by hand rather than with
 * FormData so that every piece passes the bandwidth limiter and the progress
 * counter, and so that memory stays at one 1 MiB read whatever the chunk size.
 */
export function multipartFileBody(fields: Record<string, string>, file: FileRange): MultipartBody {
  const boundary = `----media-sync-${randomBytes(12).toString('hex')}`;
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
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength: headBytes.length + fileBytes + tailBytes.length,
    async *stream(beforePiece) {
      yield headBytes;
      if (fileBytes > 0) {
        const reader = createReadStream(file.path, {
          start: file.start,
          end: file.end - 1,
          highWaterMark: READ_PIECE_BYTES,
        });
        let read = 0;
        for await (const piece of reader) {
          const buffer = piece as Buffer;
          await beforePiece(buffer.length);
          read += buffer.length;
          yield buffer;
        }
        // the file shrank under us: sending fewer bytes than announced would hang the request
        if (read !== fileBytes) throw new FileChangedError(file.path);
      }
      yield tailBytes;
    },
  };
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
