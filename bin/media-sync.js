#!/usr/bin/env node
// The `media-sync` command: runs the TypeScript CLI through tsx's loader, so
// `npx media-sync` works from a checkout without a build step.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src-main/cli/main.ts');
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
