import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as z from 'zod';
import { sha256Url } from './engine-fixture.js';
import { waitFor } from './local-http-server.js';
import type { TestServer } from './test-server.js';

const SavedRowSchema = z.object({
  file_name: z.string(),
  state: z.string().transform((text) => z.object({ kind: z.string() }).loose().parse(JSON.parse(text))),
  dzuuid: z.string().nullable(),
  acked_chunks: z.string().transform((text) => z.array(z.int()).parse(JSON.parse(text))),
});

export type SavedUpload = z.output<typeof SavedRowSchema>;

/**
 * The upload queue as a stopped app left it in `<dataDir>/media-sync.db`,
 * read-only: what the next start will resume from.
 */
export function readSavedUploads(dataDir: string): SavedUpload[] {
  const db = new Database(join(dataDir, 'media-sync.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT file_name, state, dzuuid, acked_chunks FROM upload_items ORDER BY id').all();
    return rows.map((row) => SavedRowSchema.parse(row));
  } finally {
    db.close();
  }
}

/** Waits (30 s at most) until the app of `dataDir` has committed `count` acknowledged chunks of its first item; returns them. */
export function committedChunks(dataDir: string, count: number): Promise<number[]> {
  return waitFor(
    () => {
      const acked = readSavedUploads(dataDir)[0]?.acked_chunks ?? [];
      return acked.length >= count ? acked : undefined;
    },
    30_000,
    `${count} committed chunks`,
  );
}

/**
 * Sends `signal` and waits for the process to end, at most `limitMs` (then it
 * is killed); returns its exit code (or signal) and how long the stop took.
 */
export async function stopWith(
  child: ChildProcess,
  signal: NodeJS.Signals,
  limitMs = 10_000,
): Promise<{ code: number | string; ms: number }> {
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const started = performance.now();
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const [code, killedBy] = await exited;
  clearTimeout(timer);
  return { code: code ?? killedBy ?? 'unknown', ms: performance.now() - started };
}

/**
 * What a resumed upload sent and made, for one deep-equal: the dzuuids of the
 * chunks sent after the first `sentBefore` (one: the saved one), the chunks
 * sent again though `saved` had them acknowledged (none), and the sha256 of
 * every file on the server (one: the local file's).
 */
export async function afterResume(server: TestServer, saved: SavedUpload, sentBefore: number) {
  const resent = server.server.uploadLog.entries().slice(sentBefore);
  const listed = JSON.parse((await server.api('/files?per_page=100')).body.toString()) as { data: { id: string }[] };
  return {
    dzuuids: [...new Set(resent.map((entry) => entry.dzuuid))],
    resentAcked: resent.map((entry) => entry.chunkIndex).filter((index) => saved.acked_chunks.includes(index!)),
    storedSha256: await Promise.all(listed.data.map((file) => sha256Url(`${server.fileHost}/${file.id}/file`))),
  };
}
