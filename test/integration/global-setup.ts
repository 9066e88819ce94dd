import { buildCli } from '../../scripts/build-cli.js';

/**
 * Builds `media-sync` (dist/cli) from the sources under test, as `npm ci`
 * does: the integration tests run bin/media-sync.js as a person would, and a
 * bundle older than the sources would otherwise run them through tsx, far
 * slower than what ships.
 */
export async function setup(): Promise<void> {
  await buildCli();
}
