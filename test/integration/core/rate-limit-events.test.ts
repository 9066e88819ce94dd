import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore, CoreEvent } from '../../../src-main/core/app-core.js';
import { Engine } from '../../../src-main/core/engine.js';
import type { RateLimitView } from '../../../src-shared/ipc/ipc-contract.js';
import { callCore, createAppCore } from '../../helpers/app-core-fixture.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

/**
 * `app:rateLimitChanged` as requests spend an account's budget: every
 * request moves `remaining`, so the core says it at most every 250 ms (the
 * core's clock is a FakeClock here: the quarter second passes when the test
 * says so); a gate that closes is said at once.
 */
describe("an account's rate limit, as the UI hears of it", () => {
  let server: TestServer;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let engine: Engine;
  let core: AppCore;
  let clock: FakeClock;
  let said: RateLimitView[];

  beforeEach(async () => {
    server = await startTestServer({ rateLimit: 8, rateWindowMs: 3_000 });
    data = await tempDir('media-sync-budget-');
    engine = await Engine.open({ dataDir: data.path });
    clock = new FakeClock({ wallStart: Date.now() });
    core = createAppCore(engine, data.path, { clock });
    said = [];
    core.onDidEmit((event: CoreEvent) => {
      if (event.name === 'app:rateLimitChanged') said.push(event.payload as RateLimitView);
    });
    await core.start();
  });

  afterEach(async () => {
    await core.dispose();
    await engine.close();
    await server.close();
    await data.remove();
  });

  it('says the budget once per quarter second however many requests spend it, the latest figure; a closed gate at once', async () => {
    const account = await callCore(core, 'account:signIn', { baseUrl: server.baseUrl, token: server.token });
    await callCore(core, 'account:summary', { accountId: account.id });
    // the first figure learnt is said at once (the limit was not known)
    expect(said.at(-1)).toMatchObject({ limit: 8, gateOpensInMs: 0 });
    await clock.advance(250);
    const before = said.length;

    for (let i = 0; i < 3; i++) await callCore(core, 'account:summary', { accountId: account.id });
    expect(said.length).toBe(before);
    await clock.advance(250);
    expect(said.length).toBe(before + 1);
    const { remaining } = said.at(-1)!;
    expect((await callCore(core, 'app:rateLimits', {}))[0]?.remaining).toBe(remaining);

    // the same token from elsewhere spends the rest: the app's next request meets a 429, which closes the gate, said
    // without waiting for the clock; the request waits for the gate (3 s here) and goes, and the gate's opening is
    // said at once too
    for (let i = 0; i < 20; i++) if ((await server.api('/account')).status === 429) break;
    const spending = said.length;
    await callCore(core, 'account:summary', { accountId: account.id });
    const gates = said.slice(spending).map((view) => [view.gateOpensInMs > 0, view.gateReason]);
    expect(gates).toEqual([
      [true, 'rate-limited'],
      [false, null],
    ]);
  });
});
