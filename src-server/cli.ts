import { parseArgs } from 'node:util';
import * as z from 'zod';
import { runAdmin, UsageError } from './admin/admin-commands.js';
import { PRIVATE_UMASK } from './private-files.js';
import { startReferenceServer } from './server.js';

const HELP = `Media File Service v1 reference server

  npm run server -- [--port 8787] [--host 127.0.0.1] [--data-dir DIR]
                    [--rate-limit 60] [--rate-window 60] [--allow-private-targets]
                    [--public-url URL] [--log-level info]
  npm run server -- admin --data-dir DIR ...   (run "admin" alone for its commands)

When ready it prints one JSON line to stdout: {"base_url", "file_host", "token"}.
Logs go to stderr.`;

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      'data-dir': { type: 'string', default: '.media-server' },
      'rate-limit': { type: 'string', default: '60' },
      'rate-window': { type: 'string', default: '60' },
      'allow-private-targets': { type: 'boolean', default: false },
      'public-url': { type: 'string' },
      'log-level': { type: 'string', default: 'info' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  const server = await startReferenceServer({
    host: values.host,
    port: Number(values.port),
    dataDir: values['data-dir'],
    rateLimit: Number(values['rate-limit']),
    rateWindowMs: Number(values['rate-window']) * 1000,
    allowPrivateTargets: values['allow-private-targets'],
    publicUrl: values['public-url'],
    logLevel: values['log-level'] as 'info',
  });
  process.stdout.write(
    `${JSON.stringify({ base_url: server.baseUrl, file_host: server.fileHost, token: server.demoToken })}\n`,
  );
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function admin(args: string[]): void {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string', default: '' },
      plan: { type: 'string' },
      account: { type: 'string' },
      abilities: { type: 'string' },
      'expires-in': { type: 'string' },
      ip: { type: 'string' },
      disabled: { type: 'boolean' },
      token: { type: 'string' },
      name: { type: 'string' },
    },
  });
  const result = runAdmin(positionals, values as Parameters<typeof runAdmin>[1]);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** The flag behind each server option, so a bad value is reported the way it was typed. */
const FLAG_OF: Record<string, string> = {
  host: '--host',
  port: '--port',
  dataDir: '--data-dir',
  rateLimit: '--rate-limit',
  rateWindowMs: '--rate-window',
  publicUrl: '--public-url',
  logLevel: '--log-level',
};

function describeFailure(error: unknown): string {
  if (error instanceof z.ZodError) {
    return error.issues
      .map((issue) => `${FLAG_OF[String(issue.path[0])] ?? issue.path.join('.')}: ${issue.message}`)
      .join('\n');
  }
  return error instanceof Error ? error.message : String(error);
}

async function main(argv: string[]): Promise<void> {
  // what the server and its ffmpeg write under --data-dir is this user's alone, as the folder itself (DataPaths.ensure)
  if (process.platform !== 'win32') process.umask(PRIVATE_UMASK);
  try {
    if (argv[0] === 'admin') admin(argv.slice(1));
    else await serve(argv);
  } catch (error) {
    process.stderr.write(`${describeFailure(error)}\n`);
    const usage =
      error instanceof UsageError ||
      error instanceof z.ZodError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.exit(usage ? 2 : 1);
  }
}

await main(process.argv.slice(2));
