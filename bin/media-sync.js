#!/usr/bin/env node
// The `media-sync` command: `serve` is the headless shell, everything else the CLI. It runs the bundle that
// `npm ci` builds (dist/cli, scripts/build-cli.ts), which loads only what a command needs. A bundle older than
// any source it was built from (a checkout being edited) never runs: the TypeScript sources run through tsx
// instead, a second slower, until `npm run build:cli` (or the tests' set-up) builds it again.
import { readFileSync, statSync } from 'node:fs';

// the checkout as a plain path: a stat of each source by its path, no URL made for each
const root = `${import.meta.dirname}/../`;
let tsxRegistered = false;
const load = bundleIsFresh() ? (bundle) => import(`../dist/cli/${bundle}.js`) : fromSources;
const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const cli = await load('cli');
if (process.argv[2] === 'serve') {
  const { serve } = await load('serve');
  process.exitCode = await serve(process.argv.slice(3), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    defaultDataDir: cli.resolveDataDir(undefined, {}),
    version,
  });
} else {
  process.exitCode = await cli.runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    version,
  });
}

/**
 * Whether dist/cli was built after the last change to each source in it: about 240 stats, 1 ms by plain paths
 * (3 ms with a URL made for each; importing node:path and node:url to join them cost as much again).
 */
function bundleIsFresh() {
  try {
    const { builtAt, inputs } = JSON.parse(readFileSync(`${root}dist/cli/build.json`, 'utf8'));
    return inputs.every((input) => statSync(root + input).mtimeMs < builtAt);
  } catch {
    return false;
  }
}

async function fromSources(bundle) {
  if (!tsxRegistered) {
    tsxRegistered = true;
    const { register } = await import('tsx/esm/api');
    register();
    if (process.stderr.isTTY) {
      process.stderr.write('media-sync: running the sources, newer than dist/cli (npm run build:cli bundles them).\n');
    }
  }
  return import(bundle === 'serve' ? '../src-main/headless/main.ts' : '../src-main/cli/main.ts');
}
