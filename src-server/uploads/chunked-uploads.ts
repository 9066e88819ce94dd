import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { expectedChunkLength, type ChunkFields } from '../../src-shared/api/index.js';
import type { Clock } from '../clock.js';
import type { DataPaths } from '../data-paths.js';
import type { Db } from '../db/database.js';
import type { FileRow, FileStore } from '../db/files.js';
import { ApiProblem } from '../http/api-problem.js';
import type { FileIngest } from './file-ingest.js';

interface SessionRow {
  id: number;
  account_id: number;
  dzuuid: string;
  filename: string;
  total_chunks: number;
  chunk_size: number;
  total_size: number;
  visibility: 'public' | 'private' | null;
  state: 'receiving' | 'assembling' | 'assembled';
  file_id: number | null;
  updated_at: number;
}

export interface ReceivedChunk {
  accountId: number;
  fields: ChunkFields;
  /** the original filename of the multipart part: the same in every chunk */
  filename: string;
  visibility: 'public' | 'private' | undefined;
  tmpPath: string;
  size: number;
}

export type ChunkOutcome =
  | { kind: 'partial'; dzuuid: string; receivedChunks: number; totalChunks: number }
  | { kind: 'file'; file: FileRow; created: boolean };

/**
 * Dropzone-style chunked uploads.
 *
 * Invariants:
 * - a session is (account, dzuuid); every chunk must agree with the first on
 *   filename, total size, chunk size and chunk count;
 * - chunks arrive in any order, in parallel, and may be re-sent: the last copy wins;
 * - the file is assembled exactly once: the request whose chunk completes the
 *   set moves the session from `receiving` to `assembling` in one UPDATE; any
 *   other request that sees the set complete waits for that assembly;
 * - a chunk re-sent after assembly answers the same file (for `staleMs`);
 * - sessions that stop receiving chunks are dropped after `staleMs`;
 * - an account has at most `maxUnfinished` sessions that are not assembled (`refuseOverCap`).
 */
export class ChunkedUploads {
  private readonly assemblies = new Map<number, Promise<FileRow>>();

  constructor(
    private readonly db: Db,
    private readonly files: FileStore,
    private readonly ingest: FileIngest,
    private readonly paths: DataPaths,
    private readonly clock: Clock,
    private readonly limits: { staleMs: number; maxUnfinished: number },
  ) {}

  /**
   * Refuses a new `dzuuid` while the account has `maxUnfinished` uploads that
   * are neither assembled nor stale (422 on `dzuuid`, before any byte is kept):
   * each one may hold gigabytes of chunks for a day. A chunk of an upload
   * already started always goes on, so finishing one makes room.
   */
  refuseOverCap(accountId: number, dzuuid: string): void {
    const started = this.db
      .prepare('SELECT 1 FROM upload_sessions WHERE account_id = ? AND dzuuid = ?')
      .get(accountId, dzuuid);
    if (started) return;
    const { unfinished } = this.db
      .prepare(
        "SELECT COUNT(*) AS unfinished FROM upload_sessions WHERE account_id = ? AND state != 'assembled' AND updated_at >= ?",
      )
      .get(accountId, this.clock.now() - this.limits.staleMs) as { unfinished: number };
    if (unfinished < this.limits.maxUnfinished) return;
    const hours = Number((this.limits.staleMs / 3_600_000).toFixed(2));
    const message =
      `This account has ${unfinished} unfinished chunked uploads, the most it may have at once: ` +
      `send the remaining chunks of one of them before starting another. ` +
      `An upload that gets no chunk for ${hours} hours is dropped.`;
    throw ApiProblem.validation({ dzuuid: [message] }, message);
  }

  async receive(chunk: ReceivedChunk): Promise<ChunkOutcome> {
    const { fields } = chunk;
    const expected = expectedChunkLength(fields);
    if (chunk.size !== expected) {
      throw ApiProblem.validation({
        file: [`chunk ${fields.dzchunkindex} must hold ${expected} bytes, it held ${chunk.size}`],
      });
    }
    const session = this.openSession(chunk);
    if (session.state === 'receiving') {
      await mkdir(this.paths.chunkDir(session.id), { recursive: true });
      await rename(chunk.tmpPath, this.paths.chunk(session.id, fields.dzchunkindex));
    } else {
      await unlink(chunk.tmpPath);
    }
    // The session may have moved on while the chunk was being renamed: decide on its state now.
    const recorded = this.recordChunk(session.id, fields.dzchunkindex, chunk.size, chunk.visibility);
    if (recorded.claimed) {
      const assembly = this.assemble(session.id).finally(() => this.assemblies.delete(session.id));
      this.assemblies.set(session.id, assembly);
      return { kind: 'file', file: await assembly, created: true };
    }
    if (recorded.fileId !== null) return { kind: 'file', file: this.files.byRowId(recorded.fileId)!, created: false };
    if (recorded.state === 'assembling' || recorded.received === session.total_chunks) {
      return { kind: 'file', file: await this.awaitAssembly(session.id), created: false };
    }
    return {
      kind: 'partial',
      dzuuid: fields.dzuuid,
      receivedChunks: recorded.received,
      totalChunks: session.total_chunks,
    };
  }

  private openSession(chunk: ReceivedChunk): SessionRow {
    const { fields } = chunk;
    return this.db.transaction(() => {
      const existing = this.db
        .prepare('SELECT * FROM upload_sessions WHERE account_id = ? AND dzuuid = ?')
        .get(chunk.accountId, fields.dzuuid) as SessionRow | undefined;
      if (!existing) {
        // again inside the transaction: first chunks of new uploads sent at once cannot pass the cap together
        this.refuseOverCap(chunk.accountId, fields.dzuuid);
        const info = this.db
          .prepare(
            `INSERT INTO upload_sessions (account_id, dzuuid, filename, total_chunks, chunk_size, total_size, visibility, state, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, 'receiving', ?)`,
          )
          .run(
            chunk.accountId,
            fields.dzuuid,
            chunk.filename,
            fields.dztotalchunkcount,
            fields.dzchunksize,
            fields.dztotalfilesize,
            chunk.visibility ?? null,
            this.clock.now(),
          );
        return this.db.prepare('SELECT * FROM upload_sessions WHERE id = ?').get(info.lastInsertRowid) as SessionRow;
      }
      const mismatches: string[] = [];
      if (existing.filename !== chunk.filename) mismatches.push('the original filename');
      if (existing.total_size !== fields.dztotalfilesize) mismatches.push('dztotalfilesize');
      if (existing.chunk_size !== fields.dzchunksize) mismatches.push('dzchunksize');
      if (existing.total_chunks !== fields.dztotalchunkcount) mismatches.push('dztotalchunkcount');
      if (mismatches.length > 0) {
        throw ApiProblem.validation({
          dzuuid: [
            `this dzuuid was started with a different ${mismatches.join(', ')}; use a new dzuuid for a different file`,
          ],
        });
      }
      return existing;
    })();
  }

  /**
   * Records a stored chunk if the session is still receiving. `claimed` is true
   * for exactly one request: the one whose chunk completed the set and must assemble.
   */
  private recordChunk(sessionId: number, index: number, size: number, visibility: string | undefined) {
    return this.db.transaction(() => {
      const session = this.db.prepare('SELECT state, file_id FROM upload_sessions WHERE id = ?').get(sessionId) as
        Pick<SessionRow, 'state' | 'file_id'> | undefined;
      if (!session || session.state !== 'receiving') {
        return { received: 0, claimed: false, state: session?.state ?? 'receiving', fileId: session?.file_id ?? null };
      }
      this.db
        .prepare('INSERT OR REPLACE INTO upload_chunks (session_id, chunk_index, size) VALUES (?, ?, ?)')
        .run(sessionId, index, size);
      this.db
        .prepare('UPDATE upload_sessions SET updated_at = ?, visibility = COALESCE(?, visibility) WHERE id = ?')
        .run(this.clock.now(), visibility ?? null, sessionId);
      const { received } = this.db
        .prepare('SELECT COUNT(*) AS received FROM upload_chunks WHERE session_id = ?')
        .get(sessionId) as { received: number };
      const claim = this.db
        .prepare("UPDATE upload_sessions SET state = 'assembling' WHERE id = ? AND total_chunks = ?")
        .run(sessionId, received);
      return { received, claimed: claim.changes === 1, state: session.state, fileId: null };
    })();
  }

  private async awaitAssembly(sessionId: number): Promise<FileRow> {
    const pending = this.assemblies.get(sessionId);
    if (pending) return pending;
    const session = this.db.prepare('SELECT * FROM upload_sessions WHERE id = ?').get(sessionId) as
      SessionRow | undefined;
    if (session?.file_id) return this.files.byRowId(session.file_id)!;
    throw new ApiProblem(
      'INTERNAL_ERROR',
      'The upload could not be assembled; send the chunks again with a new dzuuid.',
    );
  }

  /** Concatenates the chunks in order into one temp file, then hands it to ingest. */
  private async assemble(sessionId: number): Promise<FileRow> {
    const session = this.db.prepare('SELECT * FROM upload_sessions WHERE id = ?').get(sessionId) as SessionRow;
    const tmp = this.paths.newTmpFile();
    try {
      const paths = this.paths;
      await pipeline(async function* () {
        for (let index = 0; index < session.total_chunks; index++) {
          yield* createReadStream(paths.chunk(sessionId, index), { highWaterMark: 1024 * 1024 });
        }
      }, createWriteStream(tmp));
      const { size } = await stat(tmp);
      if (size !== session.total_size) throw new Error(`assembled ${size} bytes, expected ${session.total_size}`);
      const file = await this.ingest.ingest(tmp, size, {
        accountId: session.account_id,
        name: session.filename,
        filename: session.filename,
        visibility: session.visibility ?? 'private',
      });
      this.db.transaction(() => {
        this.db
          .prepare("UPDATE upload_sessions SET state = 'assembled', file_id = ?, updated_at = ? WHERE id = ?")
          .run(file.id, this.clock.now(), sessionId);
        this.db.prepare('DELETE FROM upload_chunks WHERE session_id = ?').run(sessionId);
      })();
      await rm(this.paths.chunkDir(sessionId), { recursive: true, force: true });
      return file;
    } catch (error) {
      await unlink(tmp).catch(() => undefined);
      this.db.prepare("UPDATE upload_sessions SET state = 'receiving' WHERE id = ?").run(sessionId);
      throw error;
    }
  }

  /** After a crash mid-assembly the chunks are still there: let the next chunk assemble again. */
  recover(): void {
    this.db.prepare("UPDATE upload_sessions SET state = 'receiving' WHERE state = 'assembling'").run();
  }

  /**
   * Drops sessions that have not moved for `staleMs`: unfinished ones with
   * their chunks, assembled ones with the memory that makes a re-sent chunk
   * idempotent. Also removes orphaned temp files.
   */
  async sweep(): Promise<number> {
    const cutoff = this.clock.now() - this.limits.staleMs;
    const stale = this.db
      .prepare("SELECT id FROM upload_sessions WHERE updated_at < ? AND state != 'assembling'")
      .all(cutoff) as { id: number }[];
    for (const { id } of stale) {
      if (this.assemblies.has(id)) continue;
      this.db.prepare('DELETE FROM upload_sessions WHERE id = ?').run(id);
      await rm(this.paths.chunkDir(id), { recursive: true, force: true });
    }
    for (const name of await readdir(this.paths.tmp)) {
      const path = join(this.paths.tmp, name);
      // Real time, not the injected clock: a file being written now is never a day old.
      const info = await stat(path).catch(() => undefined);
      if (info && info.mtimeMs < Date.now() - this.limits.staleMs) await unlink(path).catch(() => undefined);
    }
    return stale.length;
  }
}
