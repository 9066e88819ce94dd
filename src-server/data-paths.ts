import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeFolderPrivate, type MadePrivate } from './private-files.js';

/** Where the server keeps things under its data directory. Everything stays on one filesystem so moves are renames. */
export class DataPaths {
  readonly database: string;
  readonly files: string;
  readonly chunks: string;
  readonly hls: string;
  readonly tmp: string;
  readonly demoToken: string;

  constructor(readonly root: string) {
    this.database = join(root, 'server.sqlite');
    this.files = join(root, 'files');
    this.chunks = join(root, 'chunks');
    this.hls = join(root, 'hls');
    this.tmp = join(root, 'tmp');
    this.demoToken = join(root, 'demo-token');
  }

  /**
   * Makes the folders, only this user's (private-files.ts): the database
   * holds token hashes and the secret that signs file-password cookies, and
   * `files/` the bytes of private files. Answers what it had to tighten.
   */
  ensure(): MadePrivate {
    const made = makeFolderPrivate(this.root);
    for (const dir of [this.files, this.chunks, this.hls, this.tmp]) mkdirSync(dir, { recursive: true, mode: 0o700 });
    return made;
  }

  file(publicId: string): string {
    return join(this.files, publicId);
  }

  hlsDir(publicId: string): string {
    return join(this.hls, publicId);
  }

  chunkDir(sessionId: number): string {
    return join(this.chunks, String(sessionId));
  }

  chunk(sessionId: number, index: number): string {
    return join(this.chunkDir(sessionId), String(index));
  }

  newTmpFile(): string {
    return join(this.tmp, randomUUID());
  }
}
