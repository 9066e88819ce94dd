import {
  FINAL_REMOTE_JOB_STATUSES,
  describeErrorValue,
  type MediaFileDetail,
  type RemoteJob,
  type RemoteJobStatus,
} from '../../src-shared/api/index.js';
import type { MediaApiClient } from '../api-client/media-api-client.js';
import { systemClock, type Clock } from '../common/clock.js';
import { Emitter } from '../common/disposable.js';

export interface RemoteImportsOptions {
  clientFor(accountId: string): MediaApiClient | undefined;
  clock?: Clock;
  /** between two list requests while a job is pending or running */
  pollMs?: number;
  /** `file` is the created file when it could be read (its links, its media type) */
  onCompleted(job: RemoteJob, file: MediaFileDetail | null, accountId: string): void;
  /** `reason` null: the service gave none (the notification then says only that the import failed) */
  onFailed(job: RemoteJob, reason: string | null): void;
}

/**
 * Follows an account's remote imports (issue 4): while any job it knows of is
 * pending or running it sends one list request about every 10 s, at the
 * lowest priority of the account's request budget; when all are final it
 * sends none. A job that completes or fails is reported once.
 */
export class RemoteImports {
  /** per account: the status last seen of each job */
  private readonly known = new Map<string, Map<string, RemoteJobStatus>>();
  private readonly loops = new Map<string, AbortController>();
  private readonly clock: Clock;
  private readonly emitter = new Emitter<{ accountId: string; jobs: RemoteJob[] }>();
  /** the latest list of an account's jobs */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly options: RemoteImportsOptions) {
    this.clock = options.clock ?? systemClock;
  }

  /** Jobs this app just created or retried, or saw in a list: followed until they are final. */
  observe(accountId: string, jobs: RemoteJob[]): void {
    const known = this.knownOf(accountId);
    for (const job of jobs) this.note(accountId, known, job);
    if ([...known.values()].some((status) => !FINAL_REMOTE_JOB_STATUSES.has(status))) this.follow(accountId);
  }

  /** At start: one list request finds jobs still running from before. */
  async resume(accountId: string): Promise<void> {
    const client = this.options.clientFor(accountId);
    if (!client) return;
    const page = await client.listRemoteUploads({ per_page: 100 }, 'background');
    // jobs already final are history: noted silently, never reported
    const known = this.knownOf(accountId);
    for (const job of page.data) if (!known.has(job.id)) known.set(job.id, job.status);
    this.observe(accountId, page.data);
  }

  dispose(): void {
    for (const loop of this.loops.values()) loop.abort();
    this.loops.clear();
    this.emitter.dispose();
  }

  private knownOf(accountId: string): Map<string, RemoteJobStatus> {
    let known = this.known.get(accountId);
    if (!known) {
      known = new Map();
      this.known.set(accountId, known);
    }
    return known;
  }

  private note(accountId: string, known: Map<string, RemoteJobStatus>, job: RemoteJob): void {
    const before = known.get(job.id);
    known.set(job.id, job.status);
    if (before === job.status || before === undefined) return;
    if (job.status === 'completed') void this.reportCompleted(accountId, job);
    if (job.status === 'failed') this.options.onFailed(job, describeErrorValue(job.error));
  }

  private async reportCompleted(accountId: string, job: RemoteJob): Promise<void> {
    let file: MediaFileDetail | null = null;
    const client = this.options.clientFor(accountId);
    if (job.file_id && client) file = await client.getFile(job.file_id).catch(() => null);
    this.options.onCompleted(job, file, accountId);
  }

  private follow(accountId: string): void {
    if (this.loops.has(accountId)) return;
    const loop = new AbortController();
    this.loops.set(accountId, loop);
    const run = async () => {
      const known = this.knownOf(accountId);
      while ([...known.values()].some((status) => !FINAL_REMOTE_JOB_STATUSES.has(status))) {
        await this.clock.sleep(this.options.pollMs ?? 10_000, loop.signal);
        const client = this.options.clientFor(accountId);
        if (!client) return;
        try {
          const page = await client.listRemoteUploads({ per_page: 100 }, 'background');
          for (const job of page.data) if (known.has(job.id)) this.note(accountId, known, job);
          this.emitter.fire({ accountId, jobs: page.data });
        } catch {
          // a failed poll is tried again at the next tick; the scheduler already backed off
        }
      }
    };
    run()
      .catch(() => undefined)
      .finally(() => {
        if (this.loops.get(accountId) === loop) this.loops.delete(accountId);
      });
  }
}
