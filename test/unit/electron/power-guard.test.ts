import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PowerGuard, type WakeReason } from '../../../src-main/electron/power-guard.js';

function setup() {
  const blockers = new Map<number, string>();
  let next = 1;
  const powerMonitor = new EventEmitter();
  let online = true;
  const wakes: WakeReason[] = [];
  const guard = new PowerGuard({
    powerSaveBlocker: {
      start: (type) => {
        blockers.set(next, type);
        return next++;
      },
      stop: (id) => blockers.delete(id),
    },
    powerMonitor: powerMonitor as never,
    net: { isOnline: () => online },
    wake: (reason) => wakes.push(reason),
    onlinePollMs: 1_000,
  });
  return { guard, blockers, powerMonitor, wakes, setOnline: (value: boolean) => (online = value) };
}

describe('PowerGuard', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps the system awake while uploads run, and lets it sleep when the queue is idle or paused', () => {
    const { guard, blockers } = setup();
    guard.update({ active: 2, pause: null });
    guard.update({ active: 1, pause: null });
    expect([...blockers.values()]).toEqual(['prevent-app-suspension']);
    guard.update({ active: 0, pause: null });
    expect(blockers.size).toBe(0);
    guard.update({ active: 1, pause: null });
    guard.update({ active: 1, pause: { until: null } });
    expect(blockers.size).toBe(0);
    guard.update({ active: 1, pause: null });
    guard.dispose();
    expect(blockers.size).toBe(0);
  });

  it('wakes the queue when the machine resumes or the screen is unlocked, and not after dispose', () => {
    const { guard, powerMonitor, wakes } = setup();
    powerMonitor.emit('resume');
    powerMonitor.emit('unlock-screen');
    powerMonitor.emit('suspend');
    expect(wakes).toEqual(['resume', 'unlock-screen']);
    guard.dispose();
    powerMonitor.emit('resume');
    expect(wakes).toHaveLength(2);
    expect(powerMonitor.listenerCount('resume')).toBe(0);
  });

  it('wakes the queue once when the OS comes back online', () => {
    vi.useFakeTimers();
    const { guard, setOnline, wakes } = setup();
    setOnline(false);
    vi.advanceTimersByTime(3_000);
    expect(wakes).toEqual([]);
    setOnline(true);
    vi.advanceTimersByTime(3_000);
    expect(wakes).toEqual(['online']);
    guard.dispose();
  });
});
