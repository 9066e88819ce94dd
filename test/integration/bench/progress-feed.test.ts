import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { feedProgress, startSocketProxy, type SocketProxy } from '../../../bench/progress-feed.js';
import { startDaemon, type Daemon } from '../../../src-main/headless/daemon.js';
import { IPC_EVENTS } from '../../../src-shared/ipc/ipc-contract.js';
import { openCoreFixture, type CoreFixture } from '../../helpers/app-core-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { connectContract, type WsContractClient } from '../../helpers/ws-client.js';

const KEY = 'k'.repeat(32);

/** bench/queue-render.ts loads the Queue through this proxy and hands it progress batches as the daemon would. */
describe('the bench proxy in front of the daemon', () => {
  let fixture: CoreFixture;
  let daemon: Daemon;
  let proxy: SocketProxy;
  let page: WsContractClient | undefined;

  beforeEach(async () => {
    fixture = await openCoreFixture('media-sync-bench-proxy-');
    daemon = await startDaemon({ core: fixture.core, port: 0, sessionKey: KEY, dropDir: fixture.files.path });
    proxy = await startSocketProxy(daemon.url);
  });

  afterEach(async () => {
    page?.close();
    page = undefined;
    await proxy.close();
    await daemon.close();
    await fixture.close();
  });

  const pageSocket = () => connectContract(`${proxy.origin.replace('http', 'ws')}/ipc`, KEY, { Origin: proxy.origin });

  it("passes the daemon's host and origin checks: the page loads, and its socket answers commands", async () => {
    const loaded = await fetch(`${proxy.origin}/?key=${KEY}`);
    expect(loaded.status).toBe(200);
    page = await pageSocket();
    expect(await page.invoke('account:list')).toMatchObject({ ok: true });
  });

  it('hands every page socket the batches it is fed, as contract events, in order', async () => {
    page = await pageSocket();
    await feedProgress(proxy, { ids: [7, 8], batches: 3, intervalMs: 5 });
    const fed = () => page!.events.filter((event) => event.event === 'uploads:progress');
    await waitFor(() => (fed().length >= 3 ? true : undefined));
    const batches = fed().map((event) => IPC_EVENTS['uploads:progress'].parse(event.payload));
    expect(
      batches.map((batch) => batch.map(({ id, state }) => [id, state.kind === 'uploading' && state.sentBytes])),
    ).toEqual([
      [
        [7, 333_333],
        [8, 333_333],
      ],
      [
        [7, 666_667],
        [8, 666_667],
      ],
      [
        [7, 1_000_000],
        [8, 1_000_000],
      ],
    ]);
  });
});
