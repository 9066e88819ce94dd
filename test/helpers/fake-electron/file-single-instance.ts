import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SecondInstanceArgs, SingleInstance } from './fake-electron.js';

/**
 * `requestSingleInstanceLock` across processes, synchronous as Electron's is:
 * a lock file with the holder's pid (taken over when that process is gone),
 * and a mailbox folder where a second instance drops its argv for the holder,
 * which reads it within 50 ms and emits `second-instance`. Electron does the
 * same with a socket in the user-data folder.
 */
export class FileSingleInstance implements SingleInstance {
  private poll: NodeJS.Timeout | null = null;

  constructor(private readonly dir: string) {}

  acquire(handover: SecondInstanceArgs, onSecondInstance: (args: SecondInstanceArgs) => void): boolean {
    mkdirSync(this.dir, { recursive: true });
    const lock = join(this.dir, 'lock');
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
    } catch {
      const holder = Number(readFileSync(lock, 'utf8'));
      if (holder !== process.pid && isAlive(holder)) {
        const message = join(this.dir, `argv-${process.pid}.json`);
        writeFileSync(`${message}.tmp`, JSON.stringify(handover));
        renameSync(`${message}.tmp`, message);
        return false;
      }
      writeFileSync(lock, String(process.pid));
    }
    this.poll = setInterval(() => {
      for (const name of readdirSync(this.dir).filter((entry) => /^argv-\d+\.json$/.test(entry))) {
        const path = join(this.dir, name);
        const args = JSON.parse(readFileSync(path, 'utf8')) as SecondInstanceArgs;
        rmSync(path, { force: true });
        onSecondInstance(args);
      }
    }, 50);
    this.poll.unref();
    return true;
  }

  release(): void {
    if (!this.poll) return;
    clearInterval(this.poll);
    this.poll = null;
    rmSync(join(this.dir, 'lock'), { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}
