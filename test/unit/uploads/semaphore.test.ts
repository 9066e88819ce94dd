import { describe, expect, it } from 'vitest';
import { Semaphore } from '../../../src-main/uploads/semaphore.js';
import { flushMicrotasks } from '../../helpers/fake-clock.js';

/** Acquires and notes, under `name`, the order in which holders got in. */
function acquireAs(semaphore: Semaphore, name: string, granted: string[], signal?: AbortSignal) {
  const releases: { release?: () => void; error?: unknown } = {};
  semaphore.acquire(signal).then(
    (release) => {
      granted.push(name);
      releases.release = release;
    },
    (error: unknown) => {
      releases.error = error;
    },
  );
  return releases;
}

describe('Semaphore', () => {
  it('lets at most `capacity` holders in at once', async () => {
    const semaphore = new Semaphore(2);
    const granted: string[] = [];
    const a = acquireAs(semaphore, 'a', granted);
    acquireAs(semaphore, 'b', granted);
    acquireAs(semaphore, 'c', granted);
    await flushMicrotasks();
    expect(granted).toEqual(['a', 'b']);
    a.release!();
    await flushMicrotasks();
    expect(granted).toEqual(['a', 'b', 'c']);
  });

  it('serves waiters first come, first served', async () => {
    const semaphore = new Semaphore(1);
    const granted: string[] = [];
    const holders = ['first', 'second', 'third', 'fourth'].map((name) => acquireAs(semaphore, name, granted));
    for (const holder of holders) {
      await flushMicrotasks();
      holder.release!();
    }
    await flushMicrotasks();
    expect(granted).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('counts a release only once', async () => {
    const semaphore = new Semaphore(1);
    const granted: string[] = [];
    const a = acquireAs(semaphore, 'a', granted);
    await flushMicrotasks();
    a.release!();
    a.release!();
    acquireAs(semaphore, 'b', granted);
    acquireAs(semaphore, 'c', granted);
    await flushMicrotasks();
    expect(granted).toEqual(['a', 'b']);
  });

  it('drops a waiter whose signal aborts, with the signal reason, and passes its turn on', async () => {
    const semaphore = new Semaphore(1);
    const granted: string[] = [];
    const holder = acquireAs(semaphore, 'holder', granted);
    const controller = new AbortController();
    const cancelled = acquireAs(semaphore, 'cancelled', granted, controller.signal);
    const next = acquireAs(semaphore, 'next', granted);
    await flushMicrotasks();
    const reason = new Error('upload cancelled');
    controller.abort(reason);
    await flushMicrotasks();
    expect(cancelled.error).toBe(reason);
    holder.release!();
    await flushMicrotasks();
    expect(granted).toEqual(['holder', 'next']);
    // the dropped waiter took no place: one holder at a time still
    next.release!();
    acquireAs(semaphore, 'again-1', granted);
    acquireAs(semaphore, 'again-2', granted);
    await flushMicrotasks();
    expect(granted).toEqual(['holder', 'next', 'again-1']);
  });

  it('rejects at once with a signal that is already aborted', async () => {
    const semaphore = new Semaphore(1);
    const reason = new Error('quit');
    await expect(semaphore.acquire(AbortSignal.abort(reason))).rejects.toBe(reason);
    const granted: string[] = [];
    acquireAs(semaphore, 'a', granted);
    await flushMicrotasks();
    expect(granted).toEqual(['a']);
  });
});

describe('Semaphore capacity changes', () => {
  it('grants waiters at once when raised, and shrinks as holders release when lowered', async () => {
    const semaphore = new Semaphore(1);
    const first = await semaphore.acquire();
    const granted: string[] = [];
    const second = semaphore.acquire().then((release) => (granted.push('second'), release));
    const third = semaphore.acquire().then((release) => (granted.push('third'), release));
    semaphore.setCapacity(3);
    const [releaseSecond, releaseThird] = await Promise.all([second, third]);
    expect(granted).toEqual(['second', 'third']);

    semaphore.setCapacity(1);
    first();
    releaseSecond();
    let fourthGranted = false;
    const fourth = semaphore.acquire().then((release) => ((fourthGranted = true), release));
    await Promise.resolve();
    expect(fourthGranted).toBe(false);
    releaseThird();
    (await fourth)();
    expect(fourthGranted).toBe(true);
  });
});
