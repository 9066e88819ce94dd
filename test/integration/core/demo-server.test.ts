import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localDemoServer } from '../../../src-main/core/demo-server.js';
import { Engine } from '../../../src-main/core/engine.js';
import { createAppCore } from '../../helpers/app-core-fixture.js';
import { tempDir } from '../../helpers/engine-fixture.js';

describe('the local demo server ("Try it locally")', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let demo: ReturnType<typeof localDemoServer>;

  beforeEach(async () => {
    data = await tempDir('media-sync-demo-');
    demo = localDemoServer(data.path);
  });

  afterEach(async () => {
    await demo.stop();
    await data.remove();
  });

  it('starts on 127.0.0.1, signs the app in, and comes back on the same port with the same account', async () => {
    const engine = await Engine.open({ dataDir: data.path });
    const core = createAppCore(engine, data.path, { startDemo: demo.start });
    try {
      const first = await core.handle('account:startDemo', {});
      expect(first).toMatchObject({ ok: true, value: { username: 'demo', blocked: null } });
      const { id, baseUrl } = (first.ok ? first.value : {}) as { id: string; baseUrl: string };
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      expect(await core.handle('account:summary', { accountId: id })).toMatchObject({
        ok: true,
        value: { username: 'demo' },
      });

      await demo.stop();
      const again = await core.handle('account:startDemo', {});
      expect(again).toMatchObject({ ok: true, value: { baseUrl, id } });
      expect(await core.handle('account:list', {})).toMatchObject({ ok: true, value: [{ baseUrl }] });
    } finally {
      await core.dispose();
      await engine.close();
    }
  });
});
