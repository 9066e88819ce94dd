import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/**
 * A child process that holds a file open, as a recorder does between two
 * flushes: `mode` 'a' for writing (appending), 'r' for reading. Each line
 * on its stdin is a command: `write TEXT` appends and answers `ok` once it
 * reached the file; `close` closes the file and ends the process.
 */
const SCRIPT = `
const fs = require('node:fs');
const [path, mode] = process.argv.slice(1);
const fd = fs.openSync(path, mode);
const lines = require('node:readline').createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.startsWith('write ')) { fs.writeSync(fd, line.slice(6)); console.log('ok'); }
  if (line === 'close') { fs.closeSync(fd); process.exit(0); }
});
console.log('open');
`;

export interface OpenWriter {
  readonly child: ChildProcess;
  /** appends `text` to the file; resolves once it is written */
  write(text: string): Promise<void>;
  /** closes the file and waits for the process to end */
  close(): Promise<void>;
}

/** Starts the child and resolves once it holds `path` open. */
export async function holdOpen(path: string, mode: 'a' | 'r' = 'a'): Promise<OpenWriter> {
  const child = spawn(process.execPath, ['-e', SCRIPT, path, mode], { stdio: ['pipe', 'pipe', 'inherit'] });
  const answers = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const answer = await answers.next();
    if (answer.done) throw new Error(`the writer of ${path} ended`);
    return answer.value;
  };
  if ((await next()) !== 'open') throw new Error(`the writer of ${path} did not open it`);
  return {
    child,
    async write(text) {
      child.stdin!.write(`write ${text}\n`);
      await next();
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.stdin!.write('close\n');
      await exited;
    },
  };
}
