import { join } from 'node:path';
import { nodeCrypto } from '../common/lazy-builtins.js';

/*
 * What both ends of the owner socket share, apart from the server (owner-socket.ts): a client (the CLI
 * beside the app) loads this without the contract's zod schemas (zod alone takes about 60 ms to load here,
 * as long as a bare Node start: bench/cli-start.ts).
 */

/** A line longer than this is no command of the contract: the connection is closed. */
export const MAX_LINE_BYTES = 1024 * 1024;

/**
 * Where the owner of a data folder listens: a Unix socket in the folder (only
 * its user can reach it: the folder is theirs, and the socket is 0600), or on
 * Windows a named pipe named after the folder.
 */
export function ownerSocketPath(dataDir: string, platform: NodeJS.Platform = process.platform): string {
  if (platform !== 'win32') return join(dataDir, 'owner.sock');
  const hash = nodeCrypto().createHash('sha256').update(dataDir.toLowerCase()).digest('hex').slice(0, 16);
  return `\\\\.\\pipe\\media-sync-${hash}`;
}

/**
 * Splits a byte stream into lines of at most MAX_LINE_BYTES; `onLine` gets
 * each, `onOverflow` is called once if a line grows past the limit.
 */
export function lineReader(onLine: (line: string) => void, onOverflow: () => void): (piece: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (piece) => {
    pending = pending.length === 0 ? piece : Buffer.concat([pending, piece]);
    let newline: number;
    while ((newline = pending.indexOf(10)) >= 0) {
      onLine(pending.subarray(0, newline).toString('utf8'));
      pending = pending.subarray(newline + 1);
    }
    if (pending.length > MAX_LINE_BYTES) {
      pending = Buffer.alloc(0);
      onOverflow();
    }
  };
}
