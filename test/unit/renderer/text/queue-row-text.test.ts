import { describe, expect, it } from 'vitest';
import { i18n } from '../../../../src-renderer/i18n/i18n.js';
import {
  describeRow,
  fileAction,
  formatEdge,
  progressText,
  queueHoldText,
  queuePausedText,
  rateLimitText,
} from '../../../../src-renderer/text/queue-row-text.js';
import { item, rowContext } from '../../../helpers/queue-fixtures.js';

const NOW = 1_700_000_000_000;
const context = rowContext(NOW);
const problem = { message: 'The server is busy.', code: 'SERVER_ERROR', requestId: 'req-42' };

describe('queue row text', () => {
  it('says each state in words, with the actions that apply to it', () => {
    const rows = [
      describeRow(item(1), context),
      describeRow(
        item(2, { kind: 'uploading', attempt: 0, ackedBytes: 0, sentBytes: 250_000, totalBytes: 1_000_000 }),
        {
          ...context,
          speed: 125_000,
          eta: 6,
        },
      ),
      describeRow(item(3, { kind: 'finalizing', attempt: 0 }), context),
      describeRow(item(4, { kind: 'retrying', attempt: 2, retryAt: NOW + 37_000, lastError: problem }), context),
      describeRow(item(5, { kind: 'paused', until: NOW + 120 * 60_000 }), context),
      describeRow(item(6, { kind: 'done', fileId: 'f1', finishedAt: NOW }), context),
      describeRow(item(7, { kind: 'failed', reason: problem }), context),
      describeRow(item(8, { kind: 'cancelled' }), context),
    ];
    expect(rows.map(({ state, detail, problem, actions }) => ({ state, detail, problem, actions }))).toEqual([
      { state: 'Queued', detail: null, problem: null, actions: ['pause', 'cancel'] },
      {
        state: 'Uploading 25%',
        detail: '250.0 KB of 1.00 MB · 125.0 KB/s · 6 s left',
        problem: null,
        actions: ['pause', 'cancel'],
      },
      {
        state: 'Finishing',
        detail: 'All bytes sent; the server is putting the file together',
        problem: null,
        actions: ['pause', 'cancel'],
      },
      {
        state: 'Retrying in 37 s',
        detail: 'Attempt 3 after a problem',
        problem: { message: 'The server is busy.', requestId: 'req-42' },
        actions: ['retryNow', 'pause', 'cancel'],
      },
      { state: 'Paused', detail: 'Paused by you until T+120min', problem: null, actions: ['resume', 'cancel'] },
      { state: 'Done', detail: 'Uploaded at T+0min', problem: null, actions: ['copyLink'] },
      {
        state: 'Failed',
        detail: null,
        problem: { message: 'The server is busy.', requestId: 'req-42' },
        actions: ['retry'],
      },
      { state: 'Cancelled', detail: null, problem: null, actions: ['retry'] },
    ]);
    expect(rows.map((row) => row.tone)).toEqual([
      'neutral',
      'active',
      'active',
      'warn',
      'neutral',
      'ok',
      'error',
      'neutral',
    ]);
  });

  it('says a file found on the service was not uploaded, and still offers its link', () => {
    const found = describeRow(item(9, { kind: 'done', fileId: 'f9', finishedAt: NOW, existing: true }), context);
    expect(found).toMatchObject({
      state: 'Already on the service',
      detail: 'Not uploaded: a file with this name and size is on the service (checked at T+0min)',
      tone: 'ok',
      actions: ['copyLink'],
    });
  });

  it('says a file that changed while uploading waits to start over, and an upload whose file changed since', () => {
    const changedProblem = { message: 'The file changed.', code: null, requestId: null };
    const waiting = item(10, {
      kind: 'retrying',
      attempt: 0,
      retryAt: NOW + 3_000,
      lastError: changedProblem,
      changed: true,
    });
    expect(describeRow(waiting, context)).toMatchObject({
      state: 'Changed while uploading',
      detail: 'Starts over in 3 s if the file stays as it is',
      problem: null,
      tone: 'warn',
      actions: ['retryNow', 'pause', 'cancel'],
    });
    const due = { ...waiting, state: { ...waiting.state, retryAt: NOW } };
    expect(describeRow(due, context).detail).toBe('Starting over with the file as it is now');
    const earlier = item(11, { kind: 'done', fileId: 'f11', finishedAt: NOW }, { changedSinceUpload: true });
    expect(describeRow(earlier, context)).toMatchObject({
      state: 'Done',
      detail: 'Uploaded at T+0min; the file has changed since its upload',
      tone: 'ok',
    });
  });

  it('estimates nothing during the warm-up, and shows what a resumed item already sent', () => {
    const running = item(1, { kind: 'uploading', attempt: 1, ackedBytes: 0, sentBytes: 0, totalBytes: 1_000_000 });
    expect(describeRow(running, context).detail).toBe('0 B of 1.00 MB · estimating time left · attempt 2');
    const resumed = item(2, { kind: 'queued' }, { size: 200_000_000, ackedChunks: [0], chunkSize: 90_000_000 });
    expect(describeRow(resumed, context)).toMatchObject({
      detail: '90.0 MB of 200.0 MB already sent',
      progress: { confirmed: 90_000_000, sent: 90_000_000, max: 200_000_000 },
    });
    expect(describeRow(item(3, { kind: 'paused', until: null }), context).detail).toBe(
      'Paused by you until you resume it',
    );
  });

  it('says the confirmed bytes apart from those in flight, and offers "Pause after this chunk" once it is mostly sent', () => {
    const MB = 1_000_000;
    // 10 chunks of 1 MB, 4 confirmed; the fifth in flight
    const sending = (sentBytes: number, extra: { size?: number; pausing?: true } = {}) => {
      const { size = 10 * MB, pausing } = extra;
      const state = { kind: 'uploading' as const, attempt: 0, ackedBytes: 4 * MB, sentBytes, totalBytes: size };
      return describeRow(item(1, { ...state, ...(pausing && { pausing }) }, { size, chunkSize: MB }), context);
    };
    const early = sending(4.4 * MB);
    expect(early).toMatchObject({
      state: 'Uploading 44%',
      detail: '4.40 MB of 10.0 MB, 4.00 MB confirmed · estimating time left',
      progress: { confirmed: 4 * MB, sent: 4.4 * MB, max: 10 * MB },
      actions: ['pause', 'cancel'],
    });
    expect(progressText(early.progress)).toBe('40% confirmed, 44% sent');
    expect(sending(4.6 * MB).actions).toEqual(['pauseAfterChunk', 'pauseNow', 'cancel']);
    // the last chunk is shorter: half of it is less
    expect(sending(4.3 * MB, { size: 4.5 * MB }).actions).toEqual(['pauseAfterChunk', 'pauseNow', 'cancel']);
    // a file sent in one request is done after its chunk, not paused
    const whole = { kind: 'uploading' as const, attempt: 0, ackedBytes: 0, sentBytes: 0.9 * MB, totalBytes: MB };
    expect(describeRow(item(2, whole, { size: MB, chunkSize: 2 * MB }), context).actions).toEqual(['pause', 'cancel']);
    // every byte sent is confirmed: one fill, nothing more to say
    expect(sending(4 * MB).detail).toBe('4.00 MB of 10.0 MB · estimating time left');
    expect(progressText(sending(4 * MB).progress)).toBeUndefined();

    expect(sending(4.6 * MB, { pausing: true })).toMatchObject({
      state: 'Pausing after this chunk…',
      actions: ['pauseNow', 'resume', 'cancel'],
    });
    // paused: the confirmed chunks are what it keeps
    const paused = item(
      3,
      { kind: 'paused', until: null },
      { size: 4.5 * MB, chunkSize: MB, ackedChunks: [0, 1, 2, 3, 4] },
    );
    expect(describeRow(paused, context).progress).toEqual({ confirmed: 4.5 * MB, sent: 4.5 * MB, max: 4.5 * MB });
  });

  it('says why a queued item waits: a refused token, the global pause, the rate limit', () => {
    const queued = item(1);
    expect(describeRow(queued, { ...context, accountBlocked: 'This token has been disabled.' }).detail).toBe(
      'Waiting: This token has been disabled.',
    );
    expect(describeRow(queued, { ...context, queuePaused: true }).detail).toBe('Waiting: all uploads are paused');
    // a file of a paused watched folder waits for its folder; the whole queue's pause says more
    expect(describeRow(queued, { ...context, folderPaused: true }).detail).toBe('Waiting: its folder is paused');
    expect(describeRow(queued, { ...context, folderPaused: true, queuePaused: true }).detail).toBe(
      'Waiting: all uploads are paused',
    );
    expect(describeRow(queued, { ...context, accountGate: 'rate-limited' }).detail).toBe(
      'Waiting: the server asked to slow down',
    );
    const running = item(2, { kind: 'uploading', attempt: 0, ackedBytes: 0, sentBytes: 0, totalBytes: 1_000_000 });
    expect(describeRow(running, { ...context, accountGate: 'rate-limited' }).detail).toBe(
      '0 B of 1.00 MB · Waiting: the server asked to slow down',
    );
  });

  it('says a queued file a program still writes waits for it, after what holds the whole queue', () => {
    const written = item(1, { kind: 'queued', waiting: 'beingWritten' });
    expect(describeRow(written, context)).toMatchObject({
      state: 'Queued',
      detail: 'Waiting: a program is still writing this file',
      actions: ['pause', 'cancel'],
    });
    expect(describeRow(written, { ...context, queuePaused: true }).detail).toBe('Waiting: all uploads are paused');
  });

  it("says when the app itself holds the queue: the schedule's pause with its end, or the battery", () => {
    const queued = item(1);
    // a minute on: the same day in every zone (NOW is 22:13 UTC)
    const edge = NOW + 60_000;
    expect(describeRow(queued, { ...context, queueHold: { reason: 'schedule', until: edge } }).detail).toBe(
      'Waiting until T+1min: the upload schedule pauses uploads',
    );
    expect(describeRow(queued, { ...context, queueHold: { reason: 'schedule', until: null } }).detail).toBe(
      'Waiting: the upload schedule pauses uploads',
    );
    expect(describeRow(queued, { ...context, queueHold: { reason: 'battery' } }).detail).toBe(
      'Waiting: uploads are paused while on battery',
    );
    // the person's own pause is named first
    expect(describeRow(queued, { ...context, queuePaused: true, queueHold: { reason: 'battery' } }).detail).toBe(
      'Waiting: all uploads are paused',
    );
    expect(queueHoldText(null, { now: NOW })).toBeNull();
    expect(queueHoldText({ reason: 'schedule', until: edge }, { now: NOW, clock: context.clock })).toBe(
      'Paused until T+1min (schedule)',
    );
    expect(queueHoldText({ reason: 'schedule', until: null }, { now: NOW })).toBe('Paused by the schedule');
    expect(queueHoldText({ reason: 'battery' }, { now: NOW })).toBe('Paused while on battery');
    const full = { reason: 'dataDiskFull', since: NOW, waiting: 30 } as const;
    expect(queueHoldText(full, { now: NOW })).toBe('Media Sync’s disk is full: 30 files wait');
    expect(queueHoldText({ ...full, waiting: 1 }, { now: NOW })).toBe('Media Sync’s disk is full: 1 file waits');
    expect(describeRow(queued, { ...context, queueHold: full }).detail).toBe('Waiting: Media Sync’s disk is full');
  });

  it('shows an edge more than a day away with its weekday, with Intl in the locale', () => {
    // 09:17 UTC is midnight in no zone, so a minute before it is the same day everywhere
    const monday = Date.UTC(2026, 10, 30, 9, 17);
    const expected = new Intl.DateTimeFormat([], { weekday: 'short', hour: '2-digit', minute: '2-digit' }).format(
      monday,
    );
    expect(formatEdge(monday, { now: monday - 3 * 86_400_000 })).toBe(expected);
    expect(formatEdge(monday, { now: monday - 60_000, clock: () => 'at 09:17' })).toBe('at 09:17');
  });

  it('words the toolbar: the global pause and the rate-limit countdown', () => {
    expect(queuePausedText(null)).toBeNull();
    expect(queuePausedText({ until: null })).toBe('All uploads paused until you resume');
    expect(queuePausedText({ until: NOW + 60_000 }, context.clock)).toBe('All uploads paused until T+1min');
    const view = { limit: 60, remaining: 12, gateReason: 'rate-limited' as const };
    expect(rateLimitText(view, 36_200)).toBe('Waiting 37 s (rate limited)');
    expect(rateLimitText({ ...view, gateReason: 'api-disabled' }, 5_000)).toBe('Waiting 5 s (API paused)');
    expect(rateLimitText({ ...view, gateReason: null }, 0)).toBe('12 of 60 requests left');
    expect(rateLimitText({ limit: null, remaining: null, gateReason: null }, 0)).toBe('No requests yet');
  });

  it('speaks German, with sizes, speeds, percentages and weekdays written the German way', async () => {
    await i18n.changeLanguage('de');
    try {
      const running = item(2, {
        kind: 'uploading',
        attempt: 1,
        ackedBytes: 0,
        sentBytes: 456_000,
        totalBytes: 1_000_000,
      });
      const row = describeRow(running, { ...context, speed: 125_000, eta: 250, locale: 'de' });
      expect(row.state).toBe('Wird hochgeladen: 45\u00a0%');
      expect(row.detail).toBe('456,0 KB von 1,00 MB · 125,0 KB/s · noch 4 min 10 s · Versuch 2');
      const chunked = { ...running, chunkSize: 200_000, state: { ...running.state, ackedBytes: 400_000 } };
      const confirmed = describeRow(chunked, context);
      expect(confirmed.detail).toMatch(/^456,0 KB von 1,00 MB, 400,0 KB bestätigt · /);
      expect(progressText(confirmed.progress, 'de')).toBe('40\u00a0% bestätigt, 45\u00a0% gesendet');
      expect(
        describeRow(item(2, { kind: 'queued', waiting: 'beingWritten' }), { ...context, locale: 'de' }).detail,
      ).toBe('Wartet: Ein Programm schreibt diese Datei noch');
      expect(describeRow(item(1), { ...context, queuePaused: true, locale: 'de' }).detail).toBe(
        'Wartet: Alle Uploads sind pausiert',
      );
      const monday = Date.UTC(2026, 10, 30, 9, 17);
      const weekday = new Intl.DateTimeFormat('de', { weekday: 'short', hour: '2-digit', minute: '2-digit' });
      expect(queueHoldText({ reason: 'schedule', until: monday }, { now: monday - 3 * 86_400_000, locale: 'de' })).toBe(
        `Pausiert bis ${weekday.format(monday)} (Zeitplan)`,
      );
      expect(queueHoldText({ reason: 'battery' }, { now: NOW })).toBe('Im Akkubetrieb pausiert');
      expect(queueHoldText({ reason: 'dataDiskFull', since: NOW, waiting: 1_200 }, { now: NOW })).toBe(
        'Der Datenträger von Media Sync ist voll: 1.200 Dateien warten',
      );
      expect(rateLimitText({ limit: 1_000, remaining: 999, gateReason: null }, 0, 'de')).toBe(
        'Noch 999 von 1.000 Anfragen',
      );
      expect(rateLimitText({ limit: 60, remaining: 0, gateReason: 'rate-limited' }, 36_200, 'de')).toBe(
        'Wartet 37 s (Anfragelimit erreicht)',
      );
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('offers the file’s name, not its path, for a file a page sent (the daemon’s temporary copy)', () => {
    expect(fileAction(item(1), { canReveal: false })).toBe('copyPath');
    expect(fileAction(item(1), { canReveal: true })).toBe('reveal');
    const sent = item(2, { kind: 'done', fileId: 'f2', finishedAt: NOW }, { fromBrowser: true });
    expect(fileAction(sent, { canReveal: false })).toBe('copyName');
    // once uploaded, its link is one of the row's own actions
    expect(describeRow(sent, context).actions).toContain('copyLink');
  });
});
