import { join } from 'node:path';
import { describeOwner, tryLockDataFolder } from '../storage/data-folder-lock.js';
import { DATABASE_FILE, openDatabase } from '../storage/database.js';
import { databaseProblem } from '../storage/database-problem.js';
import { describeRepair, repairDatabase } from '../storage/database-repair.js';
import { line, type CliIo } from './cli-output.js';

/**
 * `media-sync repair`: with no Media Sync on the data folder, sets a damaged
 * database aside and starts a fresh one with what can still be read of it
 * (storage/database-repair.ts). A database that opens is left as it is, and
 * one that cannot be written is not helped by a fresh one: its own message
 * says what to do. Exit 0 when the database is good (repaired or found so).
 */
export async function repair(dataDir: string, io: CliIo): Promise<number> {
  const attempt = tryLockDataFolder(dataDir, { kind: 'cli', url: null });
  if (!attempt.ok) {
    line(
      io.stderr,
      `Error: ${describeOwner(attempt.owner, dataDir)} Stop it first (the page of media-sync serve has a button to repair the database there).`,
    );
    return 1;
  }
  try {
    const path = join(dataDir, DATABASE_FILE);
    try {
      openDatabase(path).close();
      line(io.stdout, `The database ${path} is not damaged: nothing to repair.`);
      return 0;
    } catch (error) {
      if (databaseProblem(error, path)?.kind !== 'damaged') throw error;
    }
    line(io.stdout, describeRepair(repairDatabase(dataDir)));
    return 0;
  } finally {
    attempt.lock.release();
  }
}
