import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MediaApiClient } from '../../../src-main/api-client/media-api-client.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { startLocalHttpServer, type LocalHttpServer } from '../../helpers/local-http-server.js';

/**
 * A pause or a quit that comes while a chunk is on its way: cut off before
 * its body is sent, the chunk is sent again later; once all of it is sent,
 * its answer is awaited a moment, so a chunk the server took is known as
 * taken and never sent twice (the desktop app's quit mid-upload found one).
 */
describe('an upload stopped while its chunk is on its way', () => {
  let server: LocalHttpServer;
  let files: Awaited<ReturnType<typeof tempDir>>;
  let client: MediaApiClient;
  let path: string;

  beforeEach(async () => {
    server = await startLocalHttpServer();
    files = await tempDir('media-sync-stop-answer-');
    client = new MediaApiClient({ baseUrl: `${server.origin}/api/v1`, token: 'test-token' });
    path = join(files.path, 'clip.mp4');
    await writeFile(path, randomBytes(2_000_000));
  });

  afterEach(async () => {
    await client.close();
    await server.close();
    await files.remove();
  });

  const range = () => ({ path, start: 0, end: 2_000_000, fileName: 'clip.mp4' });

  it('waits for the answer of a chunk whose body the server has all: the chunk counts as taken', async () => {
    let bodyReceived!: () => void;
    const received = new Promise<void>((resolve) => (bodyReceived = resolve));
    server.route('/api/v1/files/upload', (req, res) => {
      req.resume();
      req.on('end', () => {
        bodyReceived();
        // the server commits the chunk, and its answer is a moment on its way
        setTimeout(
          () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":{}}'),
          200,
        );
      });
    });
    const stop = new AbortController();
    const upload = client.upload({ range: range(), idempotent: true, signal: stop.signal });
    await received;
    stop.abort(new Error('quit'));
    await expect(upload).resolves.toMatchObject({ status: 200 });
  });

  it('stops at once while the body is still being sent', async () => {
    let firstBytes!: () => void;
    const started = new Promise<void>((resolve) => (firstBytes = resolve));
    let ended = false;
    server.route('/api/v1/files/upload', (req, res) => {
      // reads one piece and no more: the rest of the body waits in the socket
      req.once('data', () => {
        req.pause();
        firstBytes();
      });
      req.on('end', () => (ended = true));
      req.on('close', () => res.destroy());
    });
    const stop = new AbortController();
    const upload = client.upload({ range: range(), idempotent: true, signal: stop.signal });
    await started;
    stop.abort(new Error('quit'));
    await expect(upload).rejects.toThrow();
    expect(ended).toBe(false);
  });
});
