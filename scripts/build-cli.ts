import { build } from 'esbuild';
import { cp, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** An ESM bundle's `require`, for the CommonJS packages bundled in it (undici) that require Node's own modules. */
export const NODE_REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);";

/**
 * What bin/media-sync.js reads to tell whether the bundle is older than its
 * sources: every source file that went into it, relative to the checkout,
 * and when the build started reading them.
 */
export interface CliBuildStamp {
  builtAt: number;
  inputs: string[];
}

/**
 * Bundles `media-sync` into dist/cli (the `prepare` script, so `npm ci`
 * builds it): `cli.js` for the commands and `serve.js` for the daemon,
 * split into chunks that load when a command needs them, so `--help` loads
 * the dispatcher alone and `queue ls` beside the app neither zod nor SQLite
 * (bench/cli-start.ts). Packages are bundled too (one file to read instead of
 * hundreds), except better-sqlite3 (native) and what only the reference
 * server and the daemon's socket use (fastify loads files at run time; ws
 * looks for optional native helpers): they stay in node_modules. The
 * reference server's player reads `./assets/*` beside the chunk that asks:
 * those are copied next to the chunks, as for the desktop bundle.
 *
 * Files are written only when they changed, each by a rename, so a command
 * already running beside a rebuild of the same sources never reads half a
 * file.
 */
export async function buildCli(outDir = join(ROOT, 'dist/cli')): Promise<CliBuildStamp> {
  const builtAt = Date.now();
  const result = await build({
    entryPoints: { cli: join(ROOT, 'src-main/cli/main.ts'), serve: join(ROOT, 'src-main/headless/main.ts') },
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunk-[hash]',
    sourcemap: 'linked',
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
    write: false,
    logLevel: 'warning',
    external: ['better-sqlite3', 'fastify', '@fastify/*', 'ipaddr.js', 'hls.js', 'ws'],
    banner: { js: NODE_REQUIRE_BANNER },
  });
  await mkdir(outDir, { recursive: true });
  const written = new Set<string>();
  for (const file of result.outputFiles) {
    written.add(basename(file.path));
    const old = await readFile(file.path).catch(() => null);
    if (old?.equals(file.contents)) continue;
    await writeFile(`${file.path}.tmp`, file.contents);
    await rename(`${file.path}.tmp`, file.path);
  }
  // chunks of an earlier build: unused by this one
  for (const name of await readdir(outDir)) {
    if (name.startsWith('chunk-') && !written.has(name)) await rm(join(outDir, name), { force: true });
  }
  await cp(join(ROOT, 'src-server/file-host/assets'), join(outDir, 'assets'), { recursive: true });
  const inputs = Object.keys(result.metafile.inputs)
    .filter((input) => !input.includes('node_modules/'))
    .map((input) => relative(ROOT, join(process.cwd(), input)))
    .sort();
  const stamp: CliBuildStamp = { builtAt, inputs };
  await writeFile(join(outDir, 'build.json.tmp'), `${JSON.stringify(stamp)}\n`);
  await rename(join(outDir, 'build.json.tmp'), join(outDir, 'build.json'));
  return stamp;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCli();
