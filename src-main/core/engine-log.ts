import type { UploadItem } from '../../src-shared/model/upload-state.js';
import { ApiError } from '../api-client/api-error.js';
import type { SchedulerState } from '../api-client/request-scheduler.js';
import type { Clock } from '../common/clock.js';
import type { Disposable } from '../common/disposable.js';
import type { Log } from '../common/file-log.js';
import { Throttle } from '../common/throttle.js';
import type { AccountRecord } from '../storage/account-store.js';

/** A refused token or a closed gate, once when it starts and once when it ends, not at every request. */
export function logAccountState(
  log: Log,
  /** the account, as the log names it */
  who: () => string,
  before: Pick<SchedulerState, 'blocked' | 'gateReason'>,
  now: SchedulerState,
): void {
  if (now.blocked && now.blocked.code !== before.blocked?.code) {
    const { message, code, requestId } = now.blocked;
    log.warn(
      `The server refused the token of ${who()}: ${describeProblem({ message, code, requestId })} Its uploads wait until it signs in again.`,
    );
  } else if (!now.blocked && before.blocked) {
    log.info(`The token of ${who()} is accepted again; its uploads go on.`);
  }
  if (now.gateReason && now.gateReason !== before.gateReason) {
    const seconds = Math.ceil(now.gateOpensInMs / 1000);
    log.info(
      now.gateReason === 'rate-limited'
        ? `The service asked ${who()} to slow down: requests wait ${seconds} s.`
        : `The service's API is switched off for ${who()}: requests wait ${seconds} s before trying again.`,
    );
  }
}

/** Done uploads are said at most this often, as one line. */
export const UPLOADED_SUMMARY_MS = 1_000;

/**
 * What the log says of uploads: each failure and each file that changed as
 * it went, and the files done as one line per UPLOADED_SUMMARY_MS (how
 * many, and the last): a line per file was 2 % of a small file's CPU, and
 * thousands of lines in a minute are read by nobody.
 */
export class UploadLog implements Disposable {
  private done = 0;
  private last: UploadItem | null = null;
  private readonly summary: Throttle;

  constructor(
    private readonly log: Log,
    clock: Clock,
  ) {
    this.summary = new Throttle(() => this.sayDone(), UPLOADED_SUMMARY_MS, clock);
  }

  changed(item: UploadItem): void {
    if (item.state.kind === 'done') {
      this.done++;
      this.last = item;
      this.summary.schedule();
    }
    if (item.state.kind === 'retrying' && item.state.changed) {
      this.log.info(`${item.path} changed while it was uploading: it starts over once it has settled.`);
    }
    if (item.state.kind === 'failed') {
      this.log.warn(`Upload of ${item.path} failed: ${describeProblem(item.state.reason)}`);
    }
  }

  /** Says the files done since the last line (a quit does not leave them unsaid). */
  dispose(): void {
    this.summary.flush();
    this.summary.dispose();
  }

  private sayDone(): void {
    const last = this.last;
    if (last?.state.kind !== 'done') return;
    const named = `${last.path} (file id ${last.state.fileId})`;
    this.log.info(this.done === 1 ? `Uploaded ${named}.` : `Uploaded ${this.done} files, the last ${named}.`);
    this.done = 0;
    this.last = null;
  }
}

export function describeAccount(account: AccountRecord): string {
  return `${account.username ?? 'an account'} at ${account.baseUrl}`;
}

/** The account `id` as the log names it, also once it is no longer known. */
export function nameAccount(account: AccountRecord | undefined, id: string): string {
  return account ? describeAccount(account) : `account ${id}`;
}

/** `message (CODE, request id …)`: what a person saw, and what support asks for. */
function describeProblem(problem: { message: string; code: string | null; requestId: string | null }): string {
  const labels = [problem.code, problem.requestId && `request id ${problem.requestId}`].filter(Boolean);
  return labels.length > 0 ? `${problem.message} (${labels.join(', ')})` : problem.message;
}

export function describeError(error: unknown): string {
  if (error instanceof ApiError) return describeProblem(error);
  return error instanceof Error ? error.message : String(error);
}
