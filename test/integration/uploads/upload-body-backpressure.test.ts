import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MediaApiClient } from '../../../src-main/api-client/media-api-client.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { startLocalHttpServer, type LocalHttpServer } from '../../helpers/local-http-server.js';

/**
 * The upload body reuses a few read buffers (multipart-body.ts). That is safe
 * only because the HTTP writer (undici) has sent a piece before it asks for
 * the piece after next: here a server that reads slowly keeps the socket full,
 * so any piece still queued when its buffer is refilled would arrive changed.
 */
describe('upload body under backpressure', () => {
  let server: LocalHttpServer;
  let files: Awaited<ReturnType<typeof tempDir>>;
  let client: MediaApiClient;

  beforeEach(async () => {
    server = await startLocalHttpServer();
    files = await tempDir('media-sync-backpressure-');
    client = new MediaApiClient({ baseUrl: `${server.origin}/api/v1`, token: 'test-token' });
  });

  afterEach(async () => {
    await client.close();
    await server.close();
    await files.remove();
  });

  it('a slowly read chunk arrives byte for byte: a reused buffer is never refilled before it was sent', async () => {
    const received: Buffer[] = [];
    server.route('/api/v1/files/upload', (req, res) => {
      const pieces: Buffer[] = [];
      req.on('data', (piece: Buffer) => {
        pieces.push(piece);
        req.pause();
        setTimeout(() => req.resume(), 1);
      });
      req.on('end', () => {
        received.push(Buffer.concat(pieces));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":{}}');
      });
    });
    const path = join(files.path, 'clip.mp4');
    const content = randomBytes(12 * 1024 * 1024 + 4_321);
    await writeFile(path, content);
    const range = { path, start: 3_000_000, end: 11_500_000, fileName: 'clip.mp4' };

    await client.upload({ range, idempotent: true, signal: new AbortController().signal });

    expect(received).toHaveLength(1);
    const body = received[0]!;
    const start = body.indexOf('\r\n\r\n', body.indexOf('filename="clip.mp4"')) + 4;
    const end = body.lastIndexOf('\r\n--');
    expect(body.subarray(start, end).equals(content.subarray(range.start, range.end))).toBe(true);
  });
});
