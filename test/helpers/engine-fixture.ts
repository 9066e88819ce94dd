import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, type EngineOptions } from '../../src-main/core/engine.js';

export interface EngineFixture {
  engine: Engine;
  dataDir: string;
  accountId: string;
  close(): Promise<void>;
}

/** An Engine in a fresh temp data folder, signed in to `baseUrl` with `token`. */
export async function openEngine(
  baseUrl: string,
  token: string,
  options: Partial<EngineOptions> = {},
): Promise<EngineFixture> {
  const dataDir = await mkdtemp(join(tmpdir(), 'media-sync-engine-'));
  const engine = await Engine.open({ dataDir, ...options });
  const { account } = await engine.signIn(baseUrl, token);
  return {
    engine,
    dataDir,
    accountId: account.id,
    async close() {
      await engine.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A temp folder removed by the returned function. */
export async function tempDir(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/**
 * Writes `size` bytes of deterministic pseudo-random content (a fast xorshift
 * stream seeded by `seed`), 8 MiB at a time, so a 300 MB file costs no memory.
 */
export async function writeRandomFile(path: string, size: number, seed = 1): Promise<void> {
  const handle = await open(path, 'w');
  try {
    let state = seed >>> 0 || 1;
    const block = Buffer.alloc(8 * 1024 * 1024);
    for (let written = 0; written < size;) {
      for (let i = 0; i < block.length; i += 4) {
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        block.writeUInt32LE(state >>> 0, i);
      }
      const length = Math.min(block.length, size - written);
      await handle.write(block, 0, length);
      written += length;
    }
  } finally {
    await handle.close();
  }
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of createReadStream(path)) hash.update(piece as Buffer);
  return hash.digest('hex');
}

/** sha256 of a URL's body, streamed. */
export async function sha256Url(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`GET ${url}: ${response.status}`);
  const hash = createHash('sha256');
  for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) hash.update(piece);
  return hash.digest('hex');
}
