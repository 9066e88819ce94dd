import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../src-main/core/app-core.js';
import { Engine } from '../../../src-main/core/engine.js';
import { startDaemon, type Daemon } from '../../../src-main/headless/daemon.js';
import { createAppCore } from '../../helpers/app-core-fixture.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { memoryLog } from '../../helpers/memory-log.js';
import { rawRequest } from '../../helpers/raw-http.js';

const KEY = 'b'.repeat(32);

describe('the headless daemon, asked for an address it cannot decode', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let engine: Engine;
  let core: AppCore;
  let daemon: Daemon;
  const log = memoryLog();

  beforeAll(async () => {
    data = await tempDir('media-sync-daemon-escape-');
    const ui = join(data.path, 'ui');
    await mkdir(ui);
    await writeFile(join(ui, 'index.html'), '<!doctype html><title>Media Sync</title>');
    engine = await Engine.open({ dataDir: data.path });
    core = createAppCore(engine, data.path);
    daemon = await startDaemon({ core, port: 0, sessionKey: KEY, staticDir: ui, log });
  });

  afterAll(async () => {
    await daemon.close();
    await core.dispose();
    await engine.close();
    await data.remove();
  });

  it('answers 400 in words to a broken percent escape, logs no error, and goes on serving', async () => {
    for (const path of ['/%', '/%E0%A4%A', '/assets/%ZZ.js']) {
      const res = await rawRequest(`http://127.0.0.1:${daemon.port}${path}?key=${KEY}`);
      expect([path, res.status, res.text]).toEqual([path, 400, expect.stringContaining('broken percent escape')]);
    }
    expect(log.lines.filter((line) => line.startsWith('ERROR'))).toEqual([]);
    expect((await rawRequest(daemon.url)).status).toBe(200);
  });
});
