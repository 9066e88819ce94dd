import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Conversion } from '../../src-shared/api/index.js';
import { toSqlDateTime, type Clock } from '../clock.js';
import type { DataPaths } from '../data-paths.js';
import type { Db } from '../db/database.js';
import type { FileRow } from '../db/files.js';
import { JobRunner } from '../job-runner.js';
import { conversionFailure } from './conversion-failure.js';

/**
 * HLS conversion of uploaded videos with ffmpeg.
 *
 *   pending/queued ──► processing/probing ──► processing/transcoding ──► processing/adaptive ──► completed/adaptive
 *          ▲                    │                       │
 *          └──── retry (< 3) ───┴───────────────────────┴──► failed/<stage> after 3 attempts
 *
 * Without ffmpeg on PATH no conversion row is ever created, so GET
 * /files/{id}/status has no `conversion`, as the spec allows.
 */

export const MAX_CONVERSION_ATTEMPTS = 3;

interface ConversionRow {
  file_id: number;
  status: string;
  stage: string;
  attempts: number;
  duration_seconds: number;
  error: string | null;
  updated_at: number;
}

export interface FfmpegTools {
  ffmpeg: string;
  ffprobe: string;
}

/** Finds ffmpeg and ffprobe on PATH, or null when either is missing. */
export function findFfmpeg(path = process.env['PATH'] ?? ''): FfmpegTools | null {
  const find = (name: string) => {
    for (const dir of path.split(delimiter).filter(Boolean)) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
    return null;
  };
  const ffmpeg = find('ffmpeg');
  const ffprobe = find('ffprobe');
  return ffmpeg && ffprobe ? { ffmpeg, ffprobe } : null;
}

function run(command: string, args: string[], signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { signal, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr = (stderr + data.toString()).slice(-2000)));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(stderr.trim().split('\n').pop() || `${command} exited with ${code}`));
    });
  });
}

export class HlsConversions {
  private readonly runner: JobRunner<ConversionRow> | undefined;
  private readonly active = new Map<number, AbortController>();

  constructor(
    private readonly db: Db,
    private readonly paths: DataPaths,
    private readonly tools: FfmpegTools | null,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly retryDelayMs: number,
  ) {
    if (tools) {
      this.runner = new JobRunner({
        concurrency: 1,
        intervalMs: 2_000,
        claim: () => this.claim(),
        run: (row, stop) => this.convert(row, stop),
        onError: (error) => this.log.error({ err: error }, 'conversion worker failed'),
      });
    }
  }

  get enabled(): boolean {
    return this.tools !== null;
  }

  start(): void {
    this.db.prepare("UPDATE conversions SET status = 'pending', stage = 'queued' WHERE status = 'processing'").run();
    this.runner?.start();
  }

  stop(): Promise<void> {
    return this.runner?.stop() ?? Promise.resolve();
  }

  /** Queues a conversion for a stored video. */
  enqueue(file: FileRow): void {
    if (!this.runner) return;
    this.db
      .prepare(
        "INSERT OR IGNORE INTO conversions (file_id, status, stage, attempts, updated_at) VALUES (?, 'pending', 'queued', 0, ?)",
      )
      .run(file.id, this.clock.now());
    this.runner.kick();
  }

  statusOf(fileId: number): Conversion | undefined {
    const row = this.db.prepare('SELECT * FROM conversions WHERE file_id = ?').get(fileId) as ConversionRow | undefined;
    if (!row) return undefined;
    return {
      status: row.status,
      stage: row.stage,
      attempts: row.attempts,
      duration_seconds: row.duration_seconds,
      // the row keeps ffmpeg's own line (and the log has it); the owner reads it without the server's paths
      error: row.error === null ? null : conversionFailure(row.error),
      updated_at: toSqlDateTime(row.updated_at),
    };
  }

  /** Stops a running conversion of a file that is being deleted. */
  abort(fileId: number): void {
    this.active.get(fileId)?.abort();
  }

  private claim(): ConversionRow | undefined {
    const now = this.clock.now();
    return this.db
      .prepare(
        `UPDATE conversions SET status = 'processing', stage = 'probing', attempts = attempts + 1, updated_at = ?
         WHERE file_id = (SELECT file_id FROM conversions WHERE status = 'pending' AND available_at <= ? ORDER BY available_at, file_id LIMIT 1)
         RETURNING *`,
      )
      .get(now, now) as ConversionRow | undefined;
  }

  private setStage(fileId: number, stage: string, extra: { duration?: number } = {}): void {
    this.db
      .prepare(
        'UPDATE conversions SET stage = ?, duration_seconds = COALESCE(?, duration_seconds), updated_at = ? WHERE file_id = ?',
      )
      .run(stage, extra.duration ?? null, this.clock.now(), fileId);
  }

  private async convert(row: ConversionRow, stop: AbortSignal): Promise<void> {
    const file = this.db.prepare('SELECT public_id FROM files WHERE id = ?').get(row.file_id) as
      { public_id: string } | undefined;
    if (!file) return;
    const tools = this.tools!;
    const abort = new AbortController();
    this.active.set(row.file_id, abort);
    const signal = AbortSignal.any([stop, abort.signal]);
    const input = this.paths.file(file.public_id);
    const finalDir = this.paths.hlsDir(file.public_id);
    const workDir = `${finalDir}.work`;
    try {
      const probe = JSON.parse(
        await run(
          tools.ffprobe,
          ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', input],
          signal,
        ),
      ) as { format?: { duration?: string }; streams?: { codec_type?: string; width?: number; height?: number }[] };
      const video = probe.streams?.find((s) => s.codec_type === 'video');
      if (!video) throw new Error('the file has no video stream');
      const duration = Math.round(Number(probe.format?.duration ?? 0)) || 0;
      this.setStage(row.file_id, 'transcoding', { duration });

      await rm(workDir, { recursive: true, force: true });
      await mkdir(join(workDir, 'v0'), { recursive: true });
      const hasAudio = probe.streams?.some((s) => s.codec_type === 'audio') ?? false;
      await run(tools.ffmpeg, hlsArguments(input, join(workDir, 'v0'), hasAudio), signal);

      this.setStage(row.file_id, 'adaptive');
      await writeFile(join(workDir, 'master.m3u8'), await masterPlaylist(join(workDir, 'v0'), duration, video));
      await rm(finalDir, { recursive: true, force: true });
      await rename(workDir, finalDir);
      this.db
        .prepare(
          "UPDATE conversions SET status = 'completed', stage = 'adaptive', error = NULL, updated_at = ? WHERE file_id = ?",
        )
        .run(this.clock.now(), row.file_id);
    } catch (error) {
      await rm(workDir, { recursive: true, force: true }).catch(() => undefined);
      if (signal.aborted) {
        // A stop puts the work back in the queue; a deleted file has no row left to update.
        this.db
          .prepare("UPDATE conversions SET status = 'pending', stage = 'queued' WHERE file_id = ?")
          .run(row.file_id);
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const final = row.attempts >= MAX_CONVERSION_ATTEMPTS;
      this.db
        .prepare(
          `UPDATE conversions SET status = ?, stage = CASE WHEN ? THEN stage ELSE 'queued' END, error = ?,
             available_at = ?, updated_at = ? WHERE file_id = ?`,
        )
        .run(
          final ? 'failed' : 'pending',
          final ? 1 : 0,
          message,
          this.clock.now() + this.retryDelayMs,
          this.clock.now(),
          row.file_id,
        );
      this.log.warn({ file: file.public_id, attempt: row.attempts, error: message }, 'conversion failed');
    } finally {
      this.active.delete(row.file_id);
    }
  }
}

function hlsArguments(input: string, outDir: string, hasAudio: boolean): string[] {
  return [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    input,
    '-map',
    '0:v:0',
    ...(hasAudio ? ['-map', '0:a:0', '-c:a', 'aac', '-b:a', '128k', '-ac', '2'] : []),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-pix_fmt',
    'yuv420p',
    '-vf',
    "scale=-2:'trunc(min(720,ih)/2)*2'",
    '-f',
    'hls',
    '-hls_time',
    '4',
    '-hls_playlist_type',
    'vod',
    '-hls_segment_filename',
    join(outDir, 'segment_%05d.ts'),
    join(outDir, 'index.m3u8'),
  ];
}

/** A master playlist over the single rendition, with its real average bandwidth. */
async function masterPlaylist(variantDir: string, duration: number, video: { width?: number; height?: number }) {
  let bytes = 0;
  for (const name of await readdir(variantDir)) bytes += (await stat(join(variantDir, name))).size;
  const bandwidth = Math.max(1, Math.round((bytes * 8) / Math.max(duration, 1)));
  const height = Math.min(720, video.height ?? 720);
  const width = video.width && video.height ? Math.round((video.width * height) / video.height / 2) * 2 : undefined;
  const resolution = width ? `,RESOLUTION=${width}x${height}` : '';
  return `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=${bandwidth}${resolution}\nv0/index.m3u8\n`;
}
