import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildCli } from '../../scripts/build-cli.js';
import { buildUi } from '../../scripts/build-ui.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** the renderer built for this run, served with `media-sync serve --ui-dir` */
    uiDir: string;
  }
}

/**
 * Builds the renderer once for the browser tests, as `npm run serve` does, but
 * into a folder of this run's own, so a build running beside it (another
 * test run, `npm run serve`) never swaps the files under a loading page.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const uiDir = await mkdtemp(join(tmpdir(), 'media-sync-ui-'));
  // the UI as it ships: Vite honours a NODE_ENV already set, and vitest sets it to `test` (React's development build)
  const nodeEnv = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  try {
    await buildUi(uiDir);
  } finally {
    process.env['NODE_ENV'] = nodeEnv;
  }
  project.provide('uiDir', uiDir);
  // `media-sync serve` runs from its bundle (bin/media-sync.js), built from the sources under test
  await buildCli();
  return () => rm(uiDir, { recursive: true, force: true });
}
