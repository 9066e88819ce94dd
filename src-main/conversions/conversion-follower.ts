import { describeErrorValue, type FileStatus } from '../../src-shared/api/index.js';
import type { ConversionFollow, ConversionSeen, FollowState } from '../../src-shared/model/conversion-follow.js';
import { ApiError } from '../api-client/api-error.js';
import type { MediaApiClient } from '../api-client/media-api-client.js';
import { systemClock, type Clock } from '../common/clock.js';
import { Emitter } from '../common/disposable.js';
import type { ConversionStore } from './conversion-store.js';
import {
  DEFAULT_FOLLOW_POLICY,
  expire,
  isFinalFollow,
  startFollowing,
  transition,
  type FollowEvent,
  type FollowPolicy,
} from './conversion-transition.js';

export interface ConversionFollowerOptions {
  store: ConversionStore;
  clientFor(accountId: string): MediaApiClient | undefined;
  clock?: Clock;
  policy?: Partial<FollowPolicy>;
  /** final follows are forgotten this long after they ended (7 days) */
  keepFinalMs?: number;
}

/** A file whose upload or import just finished. */
export interface FollowRequest {
  accountId: string;
  fileId: string;
  name: string;
  uploadId?: number | null;
  jobId?: string | null;
  /** `urls.watch` when the answer that made the file carried it: no request needed at the end */
  watchUrl?: string | null;
  /** the file's media type when known: anything but a video has no conversion to wait for */
  mime?: string | null;
}

const HOUR_MS = 60 * 60_000;
const KEEP_FINAL_MS = 7 * 24 * HOUR_MS;

/**
 * Follows each uploaded or imported file's HLS conversion until it is final
 * (issue 13 §1), the runner of `conversion-transition.ts`:
 * - one `GET /files/{id}/status` per file per poll, at the `background`
 *   priority of the account's RequestScheduler (which never sends it inside a
 *   Retry-After nor with the last 10% of the window's budget);
 * - polls back off from 10 s to 2 min, and stop when final, on a 404, or after 24 h;
 * - a completed conversion costs one `GET /files/{id}` more when the file's
 *   `urls.watch` is not known yet (the status answer has no links);
 * - followed files live in SQLite, so a restart goes on where it was; nothing
 *   is polled before `start()` (a CLI run only records them for the app).
 */
export class ConversionFollower {
  private readonly clock: Clock;
  private readonly policy: FollowPolicy;
  private readonly polling = new Set<string>();
  private readonly emitter = new Emitter<ConversionFollow>();
  private started = false;
  private stopped = false;
  private wake: AbortController | null = null;
  /** a followed file changed state (or started to be followed) */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly options: ConversionFollowerOptions) {
    this.clock = options.clock ?? systemClock;
    this.policy = { ...DEFAULT_FOLLOW_POLICY, ...options.policy };
  }

  follow(request: FollowRequest): ConversionFollow | undefined {
    if (this.stopped) return undefined;
    const now = this.clock.wall();
    // the service converts videos only: a photo or a PDF ends at "Uploaded" without a request
    const state: FollowState =
      request.mime && !request.mime.startsWith('video/')
        ? { kind: 'uploaded', at: now }
        : startFollowing(now, this.policy);
    const follow: ConversionFollow = {
      accountId: request.accountId,
      fileId: request.fileId,
      name: request.name,
      uploadId: request.uploadId ?? null,
      jobId: request.jobId ?? null,
      watchUrl: request.watchUrl ?? null,
      state,
      startedAt: now,
      updatedAt: now,
    };
    this.options.store.put(follow);
    this.emitter.fire(follow);
    // a file with nothing to wait for (not a video) needs no turn of the polling loop
    if (state.kind === 'following') this.kick();
    return follow;
  }

  /** The file was deleted from this app: it is not asked about again. */
  forget(accountId: string, fileId: string): void {
    const follow = this.options.store.get(accountId, fileId);
    if (follow) this.apply(follow, { type: 'deleted', at: this.clock.wall() }, follow.watchUrl);
  }

  list(limit?: number): ConversionFollow[] {
    return this.options.store.list(limit);
  }

  /** The follow of one file. */
  get(accountId: string, fileId: string): ConversionFollow | undefined {
    return this.options.store.get(accountId, fileId);
  }

  /** Starts polling what is followed, from before a restart too. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    const now = this.clock.wall();
    this.options.store.pruneFinal(now - (this.options.keepFinalMs ?? KEEP_FINAL_MS));
    // a poll planned by an earlier run with a longer wait (or a wall clock set back) is not waited for past the longest wait
    for (const follow of this.options.store.dueAfter(now + this.policy.maxDelayMs)) {
      if (follow.state.kind === 'following') {
        const state = { ...follow.state, nextPollAt: now + this.policy.maxDelayMs };
        this.options.store.update(follow.accountId, follow.fileId, { state, watchUrl: follow.watchUrl, at: now });
      }
    }
    void this.run();
  }

  dispose(): void {
    this.stopped = true;
    this.wake?.abort();
    this.emitter.dispose();
  }

  private kick(): void {
    this.wake?.abort();
  }

  /**
   * Polls the files that are due, and sleeps until the next one is. Only the
   * due ones are read (an index on the next poll): a file past its 24 h is
   * stopped when its next poll comes, at most one longest wait late, without
   * a request.
   */
  private async run(): Promise<void> {
    while (!this.stopped) {
      const now = this.clock.wall();
      for (const follow of this.options.store.due(now)) {
        if (this.polling.has(keyOf(follow))) continue;
        if (follow.state.kind !== 'following') continue;
        const expired = expire(follow.state, now, follow.startedAt, this.policy);
        if (expired !== follow.state) this.save(follow, expired, follow.watchUrl);
        else void this.poll(follow);
      }
      // a poll under way is due still: it kicks the loop when it ends
      const nextAt = this.options.store.nextPollAfter(now);
      const wake = new AbortController();
      this.wake = wake;
      // a new follow or a finished poll kicks the loop; otherwise it sleeps to the next due poll
      const waitMs = nextAt !== null ? nextAt - now : HOUR_MS;
      await this.clock.sleep(waitMs, wake.signal).catch(() => undefined);
    }
  }

  private async poll(follow: ConversionFollow): Promise<void> {
    const key = keyOf(follow);
    this.polling.add(key);
    let event: FollowEvent;
    let watchUrl = follow.watchUrl;
    try {
      const client = this.options.clientFor(follow.accountId);
      if (!client) {
        // signed out, or no token yet: asked again later, until the 24 h are over
        event = { type: 'pollFailed', at: this.clock.wall() };
      } else {
        const seen = readConversion(await client.getFileStatus(follow.fileId, 'background'));
        if (seen?.status === 'completed' && watchUrl === null) {
          watchUrl = (await client.getFile(follow.fileId, 'background')).urls.watch;
        }
        event = { type: 'status', at: this.clock.wall(), conversion: seen };
      }
    } catch (error) {
      const gone = error instanceof ApiError && error.status === 404;
      event = { type: gone ? 'notFound' : 'pollFailed', at: this.clock.wall() };
    } finally {
      this.polling.delete(key);
    }
    if (this.stopped) return;
    // read again: the file may have been deleted from the app while the request was out
    const current = this.options.store.get(follow.accountId, follow.fileId);
    if (current && current.startedAt === follow.startedAt) this.apply(current, event, watchUrl);
    this.kick();
  }

  private apply(follow: ConversionFollow, event: FollowEvent, watchUrl: string | null): void {
    const state = transition(follow.state, event, follow.startedAt, this.policy);
    if (state !== follow.state) this.save(follow, state, watchUrl);
  }

  private save(follow: ConversionFollow, state: FollowState, watchUrl: string | null): void {
    const at = this.clock.wall();
    this.options.store.update(follow.accountId, follow.fileId, { state, watchUrl, at });
    const changed = { ...follow, state, watchUrl, updatedAt: at };
    // a poll that only pushed the next one back is not news for the UI
    if (isFinalFollow(state) || !sameConversion(follow.state, state)) this.emitter.fire(changed);
  }
}

function keyOf(follow: Pick<ConversionFollow, 'accountId' | 'fileId'>): string {
  return `${follow.accountId}\u0000${follow.fileId}`;
}

function sameConversion(before: FollowState, after: FollowState): boolean {
  if (before.kind !== 'following' || after.kind !== 'following') return false;
  return JSON.stringify(before.conversion) === JSON.stringify(after.conversion);
}

/** The conversion part of a status answer, as the transition reads it; null when there is none. */
export function readConversion(status: FileStatus): (ConversionSeen & { error: string | null }) | null {
  const conversion = status.conversion;
  if (!conversion) return null;
  return {
    status: conversion.status,
    stage: conversion.stage,
    progress: readProgress(conversion),
    error: describeErrorValue(conversion.error),
  };
}

/** The spec has no progress figure; a service that adds one as `progress_percent` or `progress` is shown it. */
function readProgress(conversion: Record<string, unknown>): number | null {
  for (const name of ['progress_percent', 'progress']) {
    const value = conversion[name];
    if (typeof value === 'number' && Number.isFinite(value)) return Math.min(100, Math.max(0, value));
  }
  return null;
}
