import { describe, expect, it } from 'vitest';
import { SHUTDOWN_PHASES, Shutdown, type ShutdownPhase } from '../../../src-main/common/shutdown.js';
import { FakeClock, flushMicrotasks } from '../../helpers/fake-clock.js';
import { memoryLog } from '../../helpers/memory-log.js';

function setup(timeoutMs = 5_000) {
  const clock = new FakeClock();
  const log = memoryLog();
  const shutdown = new Shutdown({ log, clock, timeoutMs });
  const steps: string[] = [];
  /** a join in `phase` that takes `ms` of the fake clock, writing down its start and end */
  const joinTaking = (phase: ShutdownPhase, what: string, ms: number) =>
    shutdown.onWillShutdown(phase, (event) => {
      steps.push(`${what} begins`);
      event.join(
        clock.sleep(ms).then(() => steps.push(`${what} done`)),
        what,
      );
    });
  return { clock, log, shutdown, steps, joinTaking };
}

describe('Shutdown', () => {
  it('runs the phases in order whatever the order of joining, the joins of one phase together', async () => {
    const { clock, shutdown, steps, joinTaking } = setup();
    joinTaking('release', 'the lock', 0);
    joinTaking('servers', 'the demo server', 100);
    joinTaking('engine', 'the engine', 300);
    joinTaking('core', 'the core', 0);
    joinTaking('intake', 'the owner socket', 200);
    joinTaking('intake', 'the daemon', 100);
    const running = shutdown.run();
    await clock.advance(1_000);
    expect(await running).toEqual({ timedOut: false });
    expect(steps).toEqual([
      'the owner socket begins',
      'the daemon begins',
      'the daemon done',
      'the owner socket done',
      'the core begins',
      'the core done',
      'the engine begins',
      'the engine done',
      'the demo server begins',
      'the demo server done',
      'the lock begins',
      'the lock done',
    ]);
    expect(SHUTDOWN_PHASES).toEqual(['intake', 'core', 'engine', 'servers', 'release']);
    // nothing is left waiting for the cap
    expect(clock.pendingSleeps).toBe(0);
  });

  it('answers within its cap, saying what it still waits for; a run() again answers the same', async () => {
    const { clock, log, shutdown, steps, joinTaking } = setup();
    joinTaking('engine', 'the upload engine', 60_000);
    joinTaking('release', 'the lock', 0);
    const running = shutdown.run();
    let answered = false;
    void running.then(() => (answered = true));
    await clock.advance(4_999);
    expect(answered).toBe(false);
    await clock.advance(1);
    expect(await running).toEqual({ timedOut: true });
    expect(await shutdown.run()).toEqual({ timedOut: true });
    expect(log.lines).toEqual([
      'WARN Stopping took longer than 5000 ms: quitting anyway (still waiting for the upload engine).',
    ]);
    // the lock is not let go under a database that may still be open
    expect(steps).toEqual(['the upload engine begins']);
  });

  it('goes on past a listener that throws and a join that fails, and logs both', async () => {
    const { clock, log, shutdown, steps, joinTaking } = setup();
    shutdown.onWillShutdown('intake', () => {
      throw new Error('no such socket');
    });
    joinTaking('intake', 'the daemon', 10);
    shutdown.onWillShutdown('engine', (event) =>
      event.join(Promise.reject(new Error('disk full')), 'the upload engine'),
    );
    joinTaking('engine', 'the conversions', 10);
    joinTaking('release', 'the lock', 0);
    const running = shutdown.run();
    await clock.advance(100);
    expect(await running).toEqual({ timedOut: false });
    expect(steps).toEqual([
      'the daemon begins',
      'the daemon done',
      'the conversions begins',
      'the conversions done',
      'the lock begins',
      'the lock done',
    ]);
    expect(log.lines).toEqual([
      'ERROR Something failed to stop (intake). Error: no such socket',
      'ERROR Stopping the upload engine failed. Error: disk full',
    ]);
  });

  it('waits for what joins while it runs: a part that started late, a join made by a join', async () => {
    const { clock, shutdown, steps, joinTaking } = setup();
    // a start still under way when the stop began: it opens the engine and the demo server meanwhile
    joinTaking('intake', 'the start', 50);
    shutdown.onWillShutdown('intake', (event) =>
      event.join(
        clock.sleep(20).then(() => {
          joinTaking('engine', 'the engine opened late', 10);
          // its phase is running: it joins at once, and the phase waits for it
          joinTaking('intake', 'the owner socket opened late', 100);
        }),
        'the start, later',
      ),
    );
    // a join that joins more of the same phase
    shutdown.onWillShutdown('core', (event) =>
      event.join(
        clock.sleep(10).then(() =>
          event.join(
            clock.sleep(10).then(() => steps.push('the core, its last part')),
            'the core, its last part',
          ),
        ),
        'the core',
      ),
    );
    joinTaking('servers', 'the demo server', 10);
    const running = shutdown.run();
    await clock.advance(1_000);
    expect(await running).toEqual({ timedOut: false });
    expect(steps).toEqual([
      'the start begins',
      'the owner socket opened late begins',
      'the start done',
      'the owner socket opened late done',
      'the core, its last part',
      'the engine opened late begins',
      'the engine opened late done',
      'the demo server begins',
      'the demo server done',
    ]);
  });

  it('calls at once a listener whose phase has passed, and waits for its join before it answers', async () => {
    const { clock, shutdown, steps, joinTaking } = setup();
    joinTaking('engine', 'the engine', 50);
    const running = shutdown.run();
    await clock.advance(10);
    joinTaking('intake', 'a late window', 100);
    expect(steps).toEqual(['the engine begins', 'a late window begins']);
    await clock.advance(1_000);
    expect(await running).toEqual({ timedOut: false });
    expect(steps).toEqual(['the engine begins', 'a late window begins', 'the engine done', 'a late window done']);
  });

  it('does not call a listener disposed before its phase: a part that stopped by itself', async () => {
    const { clock, shutdown, steps, joinTaking } = setup();
    joinTaking('intake', 'the daemon', 0).dispose();
    const engine = joinTaking('engine', 'the engine', 0);
    // the core stops the engine itself on its way out
    shutdown.onWillShutdown('core', () => engine.dispose());
    const running = shutdown.run();
    await clock.advance(10);
    await flushMicrotasks();
    expect(await running).toEqual({ timedOut: false });
    expect(steps).toEqual([]);
  });
});
