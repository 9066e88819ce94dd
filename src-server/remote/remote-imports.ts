import { unlink } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import { PLAN_FILE_SIZE_LIMIT_BYTES, type ValidationDetails } from '../../src-shared/api/index.js';
import { hashPassword } from '../auth/passwords.js';
import type { DataPaths } from '../data-paths.js';
import type { AccountStore } from '../db/accounts.js';
import { ApiProblem } from '../http/api-problem.js';
import { JobRunner } from '../job-runner.js';
import { throttleLatest } from '../throttle.js';
import type { FileIngest } from '../uploads/file-ingest.js';
import { extensionForMediaType, extensionOf, safeFilename } from '../uploads/media-type.js';
import type { RemoteJobRow, RemoteJobStore } from './remote-job-store.js';
import { DownloadFailed, safeDownload } from './safe-download.js';
import { TargetRefused, hostOf, resolveTarget, type TargetPolicy } from './target-guard.js';

export interface CreateJobsRequest {
  urls: string[];
  name?: string | null;
  description?: string | null;
  folder_id?: number | null;
  visibility?: boolean;
  allow_online_watch?: boolean;
  password?: string | null;
  blocked_countries?: string[];
}

export interface RemoteImportOptions {
  concurrency: number;
  maxBytes: number | undefined;
  deadlineMs: number;
  idleTimeoutMs: number;
}

/** How long creation waits for DNS before accepting a URL and leaving the check to the worker. */
const CREATE_RESOLVE_TIMEOUT_MS = 2_000;
const PROGRESS_WRITE_INTERVAL_MS = 250;

/** A file name from the URL's last path segment, or its host. */
export function nameFromUrl(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).pop() ?? '';
  let decoded = last;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    // keep the raw segment
  }
  return Array.from(safeFilename(decoded, hostOf(url)))
    .slice(0, 240)
    .join('');
}

/**
 * Remote uploads: validation at creation (the guard refuses what it can tell
 * without connecting), a background worker that downloads behind the guard
 * again, and the cancel / retry transitions of the spec.
 */
export class RemoteImports {
  private readonly active = new Map<string, AbortController>();
  private readonly runner: JobRunner<RemoteJobRow>;

  constructor(
    private readonly jobs: RemoteJobStore,
    private readonly accounts: AccountStore,
    private readonly ingest: FileIngest,
    private readonly paths: DataPaths,
    private readonly policy: TargetPolicy,
    private readonly options: RemoteImportOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.runner = new JobRunner({
      concurrency: options.concurrency,
      intervalMs: 1_000,
      claim: () => this.jobs.claimNext(),
      run: (job, stop) => this.run(job, stop),
      onError: (error) => this.log.error({ err: error }, 'remote import worker failed'),
    });
  }

  start(): void {
    this.jobs.requeueInterrupted();
    this.runner.start();
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  async create(accountId: number, body: CreateJobsRequest): Promise<RemoteJobRow[]> {
    const details: ValidationDetails = {};
    if (body.folder_id != null && !this.accounts.folderBelongsTo(accountId, body.folder_id)) {
      details['folder_id'] = ['The selected folder does not exist.'];
    }
    const urls = body.urls.map((raw) => new URL(raw));
    const verdicts = await Promise.all(urls.map((url) => this.screen(url)));
    verdicts.forEach((refusal, index) => {
      if (refusal) details[`urls.${index}`] = [refusal];
    });
    if (Object.keys(details).length > 0) throw ApiProblem.validation(details);

    const passwordHash = body.password ? await hashPassword(body.password) : null;
    const created = this.jobs.insertMany(
      urls.map((url) => ({
        accountId,
        url: url.href,
        host: hostOf(url),
        name: body.name ?? nameFromUrl(url),
        description: body.description ?? null,
        folderId: body.folder_id ?? null,
        visibility: body.visibility ? 'public' : 'private',
        allowOnlineWatch: body.allow_online_watch ?? true,
        passwordHash,
        blockedCountries: body.blocked_countries ?? [],
      })),
    );
    this.runner.kick();
    return created;
  }

  /** The refusal message for a URL, or null to accept it (a slow or failing DNS is left to the worker). */
  private async screen(url: URL): Promise<string | null> {
    const timeout = new Promise<null>((resolve) => setTimeout(resolve, CREATE_RESOLVE_TIMEOUT_MS, null).unref());
    const check = resolveTarget(url, this.policy).then(
      () => null,
      (error: unknown) => {
        if (error instanceof TargetRefused && !error.unresolved) return `This URL is not allowed: ${error.message}.`;
        return null;
      },
    );
    return Promise.race([check, timeout]);
  }

  cancel(accountId: number, id: string): RemoteJobRow {
    const job = this.owned(accountId, id);
    if (job.status === 'pending' && this.jobs.cancelPending(id)) return this.jobs.byId(id)!;
    if (job.status === 'running') {
      if (job.cancel_requested === 0) this.jobs.requestCancel(id);
      this.active.get(id)?.abort();
      return this.jobs.byId(id)!;
    }
    throw new ApiProblem('REMOTE_JOB_NOT_CANCELLABLE', `The job is ${job.status} and can no longer be cancelled.`);
  }

  retry(accountId: number, id: string): RemoteJobRow {
    const job = this.owned(accountId, id);
    if (!this.jobs.retry(id)) {
      throw new ApiProblem(
        'REMOTE_JOB_NOT_RETRYABLE',
        `The job is ${job.status}; only failed or cancelled jobs can be retried.`,
      );
    }
    // The answer shows the job as retry left it (pending, queued), before a worker picks it up.
    const reset = this.jobs.byId(id)!;
    this.runner.kick();
    return reset;
  }

  owned(accountId: number, id: string): RemoteJobRow {
    const job = this.jobs.owned(accountId, id.toLowerCase());
    if (!job) throw ApiProblem.notFound('Remote upload job');
    return job;
  }

  private async run(job: RemoteJobRow, stop: AbortSignal): Promise<void> {
    const cancel = new AbortController();
    this.active.set(job.id, cancel);
    const tmp = this.paths.newTmpFile();
    const progress = throttleLatest(
      (bytes: number) => this.jobs.setProgress(job.id, bytes, null),
      PROGRESS_WRITE_INTERVAL_MS,
    );
    try {
      const account = this.accounts.accountById(job.account_id)!;
      const maxBytes = Math.min(PLAN_FILE_SIZE_LIMIT_BYTES[account.plan], this.options.maxBytes ?? Infinity);
      const result = await safeDownload(new URL(job.url), {
        policy: this.policy,
        dest: tmp,
        maxBytes,
        deadlineMs: this.options.deadlineMs,
        idleTimeoutMs: this.options.idleTimeoutMs,
        signal: AbortSignal.any([stop, cancel.signal]),
        onResponse: ({ bytesTotal }) => {
          this.jobs.setStage(job.id, 'downloading');
          this.jobs.setProgress(job.id, 0, bytesTotal);
        },
        onProgress: progress.call,
      });
      cancel.signal.throwIfAborted();
      stop.throwIfAborted();
      this.jobs.setStage(job.id, 'storing');
      const file = await this.ingest.ingest(tmp, result.bytes, {
        accountId: job.account_id,
        name: job.name,
        filename: storedFilename(job.name, result.filename, result.mediaType),
        visibility: job.visibility,
        passwordHash: job.password_hash,
        allowOnlineWatch: job.allow_online_watch === 1,
        description: job.description,
        folderId: job.folder_id,
        blockedCountries: JSON.parse(job.blocked_countries) as string[],
      });
      this.jobs.complete(job.id, file.public_id, result.bytes);
      this.log.info({ job: job.id, file: file.public_id, bytes: result.bytes }, 'remote import completed');
    } catch (error) {
      if (cancel.signal.aborted) {
        this.jobs.markCancelled(job.id);
      } else if (stop.aborted) {
        this.jobs.requeue(job.id);
      } else {
        const failure =
          error instanceof DownloadFailed ? error : new DownloadFailed('NETWORK_ERROR', 'the import failed');
        if (!(error instanceof DownloadFailed)) this.log.error({ err: error, job: job.id }, 'remote import failed');
        this.jobs.fail(job.id, failure.code, failure.message);
      }
    } finally {
      progress.cancel();
      this.active.delete(job.id);
      await unlink(tmp).catch(() => undefined);
    }
  }
}

/** The stored filename: the source's own name when it sent one, else the job name, with an extension. */
function storedFilename(jobName: string, dispositionName: string | null, mediaType: string): string {
  const name = safeFilename(dispositionName ?? jobName);
  if (extensionOf(name)) return name;
  const extension = extensionForMediaType(mediaType);
  return extension ? `${name}.${extension}` : name;
}
