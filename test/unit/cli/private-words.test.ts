import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src-main/cli/main.js';

describe('the CLI on --private', () => {
  it('says in its help that a private file opens for anyone with its link, and how to keep it to yourself', async () => {
    const stdout = new PassThrough();
    let printed = '';
    stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const code = await runCli(['--help'], { stdout, stderr: new PassThrough(), stdin: new PassThrough(), env: {} });
    expect(code).toBe(0);
    expect(printed).toContain(
      'Private: not listed publicly; anyone with the link can open it. Add a password (files edit ID --password-stdin) to keep it to yourself.',
    );
    expect(printed).not.toMatch(/only you\b/);
  });
});
