import { execFile } from 'node:child_process';
import { copyFile, mkdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MEDIA_SYNC_BIN } from '../../helpers/cli-process.js';
import { tempDir } from '../../helpers/engine-fixture.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../../..');

/**
 * bin/media-sync.js runs the bundle only while it is at least as new as each
 * source it was built from; otherwise the sources, through tsx. Checked on a
 * checkout of its own: a bundle and sources that say which ran.
 */
describe('bin/media-sync.js', () => {
  let checkout: Awaited<ReturnType<typeof tempDir>>;
  const source = () => join(checkout.path, 'src-main/cli/main.ts');
  const which = async () =>
    (await run(process.execPath, [join(checkout.path, 'bin/media-sync.js'), 'queue', 'ls'])).stdout;

  beforeEach(async () => {
    checkout = await tempDir('media-sync-bin-');
    const at = (path: string) => join(checkout.path, path);
    await mkdir(at('bin'));
    await mkdir(at('dist/cli'), { recursive: true });
    await mkdir(at('src-main/cli'), { recursive: true });
    await copyFile(MEDIA_SYNC_BIN, at('bin/media-sync.js'));
    await symlink(join(ROOT, 'node_modules'), at('node_modules'));
    await writeFile(at('package.json'), JSON.stringify({ type: 'module', version: '9.9.9' }));
    const main = (ran: string) =>
      `export async function runCli(args, io) { io.stdout.write('${ran} ' + io.version + ' ' + args.join(' ')); return 0; }\n` +
      `export function resolveDataDir() { return '/nowhere'; }\n`;
    await writeFile(source(), main('sources'));
    await writeFile(at('dist/cli/cli.js'), main('bundle'));
    const builtAt = Date.now();
    await writeFile(at('dist/cli/build.json'), JSON.stringify({ builtAt, inputs: ['src-main/cli/main.ts'] }));
    const before = new Date(builtAt - 60_000);
    await utimes(source(), before, before);
  });

  afterEach(async () => {
    await checkout.remove();
  });

  it('runs the bundle while no source is newer, and the sources once one is', async () => {
    expect(await which()).toBe('bundle 9.9.9 queue ls');
    const after = new Date(Date.now() + 60_000);
    await utimes(source(), after, after);
    expect(await which()).toBe('sources 9.9.9 queue ls');
  });

  it('runs the sources when there is no bundle, or a source it names is gone', async () => {
    await rm(join(checkout.path, 'dist/cli/build.json'));
    expect(await which()).toBe('sources 9.9.9 queue ls');
    await writeFile(
      join(checkout.path, 'dist/cli/build.json'),
      JSON.stringify({ builtAt: Date.now(), inputs: ['src-main/cli/main.ts', 'src-main/cli/gone.ts'] }),
    );
    expect(await which()).toBe('sources 9.9.9 queue ls');
  });
});
