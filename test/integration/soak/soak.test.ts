import { describe, expect, it } from 'vitest';
import { runSoak } from '../../../bench/soak-run.js';

/**
 * `npm run soak` in small (bench/soak.ts runs 200 files of up to 200 MB):
 * the same run, so CI holds its logic — the real CLI through the fault proxy,
 * one SIGKILL and a restart, every file once and identical on the server.
 */
describe('the soak run, small', () => {
  it('12 files, 20 % of requests broken, one kill -9 and a restart: none lost, none twice', async () => {
    const figures = await runSoak({
      files: 12,
      minBytes: 1_000_000,
      maxBytes: 3_000_000,
      chunkSize: 1_000_000,
      faultRate: 0.2,
      killAtFraction: 0.4,
      deadlineMs: 55_000,
      seed: 12,
      // slow enough that the kill lands mid-way, not after the last file
      bandwidth: '8MB',
    });

    expect(figures).toMatchObject({ files: 12, duplicates: 0, lost: 0, mismatched: 0, deadline_passed: false });
    expect(figures.killed_at_bytes).toBeGreaterThan(0);
    expect(figures.killed_at_bytes).toBeLessThan(figures.bytes);
    expect(figures.exit_codes).toEqual(['SIGKILL', 0]);
    expect(Object.values(figures.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(figures.upload_requests).toBeGreaterThan(figures.chunks_needed);
  }, 60_000);
});
