#!/usr/bin/env node
// The `media-sync` command: runs the TypeScript sources through tsx's loader,
// so `npx media-sync` works from a checkout without a build step. `serve` is
// the headless shell (an entry point of its own); everything else is the CLI.
import { readFileSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const [command, ...rest] = process.argv.slice(2);
if (command === 'serve') {
  const { serve } = await import('../src-main/headless/main.ts');
  const { resolveDataDir } = await import('../src-main/cli/data-dir.ts');
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.exitCode = await serve(rest, {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    defaultDataDir: resolveDataDir(undefined, {}),
    version,
  });
} else {
  const { runCli } = await import('../src-main/cli/main.ts');
  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
  });
}
