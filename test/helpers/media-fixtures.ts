import { randomBytes } from 'node:crypto';
import type { Handler } from './local-http-server.js';

/** Bytes that start like an MP4 (an `ftyp` box) followed by random data. */
export function fakeMp4(size: number): Buffer {
  const head = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12)]);
  return Buffer.concat([head, randomBytes(Math.max(0, size - head.length))]);
}

/** Serves `body` with a label and optional extra headers. */
export function serve(body: Buffer | string, contentType: string, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...headers });
    res.end(body);
  };
}

/**
 * Sends the first `sendBytes` of `body`, then stalls until `release()` (or the
 * client goes away): a download that stays `running` for as long as a test needs.
 */
export function stalling(body: Buffer, sendBytes: number) {
  const waiting = new Set<() => void>();
  const handler: Handler = (req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': body.length });
    res.write(body.subarray(0, sendBytes));
    const finish = () => res.end(body.subarray(sendBytes));
    waiting.add(finish);
    req.socket.once('close', () => waiting.delete(finish));
  };
  return {
    handler,
    release() {
      for (const finish of waiting) finish();
      waiting.clear();
    },
  };
}
