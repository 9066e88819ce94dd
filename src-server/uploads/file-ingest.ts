import { open, rename, unlink } from 'node:fs/promises';
import type { DataPaths } from '../data-paths.js';
import type { FileRow, FileStore, NewFile } from '../db/files.js';
import { extensionOf, mediaTypeOf } from './media-type.js';

export type IngestRequest = Omit<NewFile, 'mime' | 'extension' | 'sizeBytes'>;

async function readHead(path: string, length = 512): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Turns a complete temp file into a stored file of an account: the bytes are
 * moved into place first, then the row is written, so a listed file always
 * has its bytes. Every way a file arrives (single upload, assembled chunks,
 * remote import) ends here.
 */
export class FileIngest {
  constructor(
    private readonly files: FileStore,
    private readonly paths: DataPaths,
    private readonly onStored: (file: FileRow) => void,
  ) {}

  async ingest(tmpPath: string, sizeBytes: number, request: IngestRequest): Promise<FileRow> {
    const head = await readHead(tmpPath);
    const publicId = this.files.newId();
    const target = this.paths.file(publicId);
    await rename(tmpPath, target);
    let row: FileRow;
    try {
      row = this.files.insert(publicId, {
        ...request,
        mime: mediaTypeOf(request.filename, head),
        extension: extensionOf(request.filename),
        sizeBytes,
      });
    } catch (error) {
      await unlink(target).catch(() => undefined);
      throw error;
    }
    this.onStored(row);
    return row;
  }
}
