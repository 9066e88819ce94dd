import { createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod';
import { verifyPassword } from '../auth/passwords.js';
import type { FileRow } from '../db/files.js';
import { ApiProblem } from '../http/api-problem.js';
import type { ServerContext } from '../http/context.js';
import { FixedWindowRateLimiter } from '../http/rate-limiter.js';
import { isInertMedia } from '../uploads/media-type.js';
import { noticePage, passwordPage, playerPage, type PageKind } from './pages.js';

const require = createRequire(import.meta.url);
const ASSETS: Readonly<Record<string, { path: string; type: string }>> = {
  'hls.min.js': { path: require.resolve('hls.js/dist/hls.min.js'), type: 'text/javascript; charset=utf-8' },
  'player.js': {
    path: fileURLToPath(new URL('./assets/player.js', import.meta.url)),
    type: 'text/javascript; charset=utf-8',
  },
  'player.css': {
    path: fileURLToPath(new URL('./assets/player.css', import.meta.url)),
    type: 'text/css; charset=utf-8',
  },
};

const HLS_FILE = /^(master\.m3u8|v0\/index\.m3u8|v0\/segment_\d{5}\.ts)$/;
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; media-src 'self' blob:; connect-src 'self'; worker-src 'self' blob:; form-action 'self'; base-uri 'none'";
/** Holds the longest password (255 characters, at most 12 bytes each once UTF-8 and percent-encoded). */
const FORM_LIMIT_BYTES = 4096;
const PasswordFormSchema = z.object({ password: z.string().max(255) });
/** Password tries per file and client address in one window, before the form answers 429. */
export const PASSWORD_TRIES = 10;
export const PASSWORD_WINDOW_MS = 60_000;

type Range = { start: number; end: number } | 'unsatisfiable' | null;

/** One `bytes=` range (start-end, start-, -suffix); several ranges are answered with the whole file. */
export function parseRange(header: string | undefined, size: number): Range {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/**
 * The file host: `<file_host>/<id>/file` (the bytes, with Range),
 * `/watch` and `/embed` (a player page, HLS when converted), and the HLS
 * rendition. Links are shareable; a password-protected file asks for its
 * password once (a form POSTed to the same address, never a query string that
 * history and logs would keep) and remembers it in a cookie scoped to that file.
 * Register it in a scope of its own: the form parser is no part of the API.
 */
export function fileHostRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const secret = ctx.accounts.serverSecret();
  // per (file, client address): a guesser gets 10 tries a minute, and one file's lock-out is no other's
  const tries = new FixedWindowRateLimiter(PASSWORD_TRIES, PASSWORD_WINDOW_MS, ctx.clock);
  const cookieName = (file: FileRow) => `mfs_access_${file.public_id}`;
  const cookieValue = (file: FileRow) =>
    createHmac('sha256', secret).update(`${file.public_id}:${file.password_hash}`).digest('base64url');

  function fileOf(request: FastifyRequest): FileRow {
    const { id } = request.params as { id: string };
    const file = ctx.files.byPublicId(id);
    if (!file) throw ApiProblem.notFound('File');
    return file;
  }

  function hasAccessCookie(request: FastifyRequest, file: FileRow): boolean {
    const cookies = request.headers.cookie ?? '';
    const match = new RegExp(`(?:^|;\\s*)${cookieName(file)}=([^;]+)`).exec(cookies);
    if (!match) return false;
    const given = Buffer.from(match[1]!);
    const expected = Buffer.from(cookieValue(file));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** Sends the 451 page and returns true when the file is blocked where the visitor is. */
  function refuseCountry(request: FastifyRequest, reply: FastifyReply, file: FileRow): boolean {
    const blocked = JSON.parse(file.blocked_countries) as string[];
    const country = String(request.headers['cf-ipcountry'] ?? '').toUpperCase();
    if (!country || !blocked.includes(country)) return false;
    sendPage(reply, 451, noticePage(file, 'This file is not available in your country.'));
    return true;
  }

  /** Sends the refusal page and returns false when the visitor may not have the file. */
  function admit(request: FastifyRequest, reply: FastifyReply, file: FileRow, action: string): boolean {
    if (refuseCountry(request, reply, file)) return false;
    if (file.password_hash === null || hasAccessCookie(request, file)) return true;
    sendPage(reply, 401, passwordPage(file, action));
    return false;
  }

  /**
   * A form posted from another site. The access cookie is SameSite=Lax, so such
   * a post cannot use a visitor's access, but it could still give a visitor
   * someone else's; browsers send Origin on every POST, so refusing a foreign
   * one (or `null`, from a sandboxed or no-referrer page) costs a person
   * nothing. Without Origin (not a browser) it is allowed.
   */
  function postedFromElsewhere(request: FastifyRequest): boolean {
    const origin = request.headers.origin;
    if (origin === undefined) return false;
    return origin !== ctx.fileHost && origin !== `${request.protocol}://${request.headers.host}`;
  }

  /** The password form: sets the access cookie and sends the visitor back to the address, without the password. */
  async function unlock(request: FastifyRequest, reply: FastifyReply, page: 'file' | PageKind) {
    const file = fileOf(request);
    const action = `/${file.public_id}/${page}`;
    if (refuseCountry(request, reply, file)) return reply;
    if (postedFromElsewhere(request)) {
      return sendPage(reply, 403, noticePage(file, 'This password form was sent from another site.'));
    }
    if (file.password_hash !== null) {
      // counted before the password is looked at: past the limit, nothing is learned about it
      const attempt = tries.hit(`${file.public_id}|${request.ip}`);
      if (!attempt.allowed) {
        reply.header('Retry-After', String(attempt.retryAfterSeconds));
        return sendPage(reply, 429, passwordPage(file, action, { wrong: false, seconds: attempt.retryAfterSeconds }));
      }
      const form = PasswordFormSchema.safeParse(request.body);
      if (!form.success || !(await verifyPassword(form.data.password, file.password_hash))) {
        return sendPage(
          reply,
          401,
          passwordPage(file, action, {
            wrong: true,
            triesLeft: attempt.remaining,
            seconds: attempt.retryAfterSeconds,
          }),
        );
      }
      reply.header(
        'Set-Cookie',
        `${cookieName(file)}=${cookieValue(file)}; Path=/${file.public_id}; HttpOnly; SameSite=Lax`,
      );
    }
    // 303: the browser follows with a GET, so reloading the file does not post the password again
    return reply.code(303).header('Location', action).send();
  }

  function sendPage(reply: FastifyReply, status: number, html: string, frameable = false): FastifyReply {
    // same-origin, not no-referrer: under no-referrer a browser posts the password form with `Origin: null`
    return reply
      .code(status)
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Content-Security-Policy', `${PAGE_CSP}; frame-ancestors ${frameable ? '*' : "'self'"}`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'same-origin')
      .send(html);
  }

  app.get('/', async () => ({
    success: true,
    data: { service: 'Media File Service API v1 (reference server)', base_url: `${ctx.fileHost}/api/v1` },
  }));

  // Browsers ask for it on every page; answering "no icon" keeps their consoles clean.
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).send());

  app.get('/assets/:name', async (request, reply) => {
    const asset = ASSETS[(request.params as { name: string }).name];
    if (!asset) throw ApiProblem.notFound('Asset');
    return reply
      .header('Content-Type', asset.type)
      .header('Cache-Control', 'public, max-age=3600')
      .send(createReadStream(asset.path));
  });

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.get('/:id/file', async (request, reply) => {
    const file = fileOf(request);
    if (!admit(request, reply, file, `/${file.public_id}/file`)) return reply;
    const range = parseRange(request.headers.range, file.size_bytes);
    // Media goes out unsandboxed: a sandboxed document has an opaque origin, and
    // Chromium's own player page for a video then refuses to load it ("origin 'null'", CORS).
    // Anything that could run script keeps the sandbox and is downloaded, plain text aside.
    const inert = isInertMedia(file.mime);
    if (!inert) reply.header('Content-Security-Policy', 'sandbox');
    reply
      .header('Accept-Ranges', 'bytes')
      .header('Content-Type', file.mime)
      .header('X-Content-Type-Options', 'nosniff')
      .header(
        'Content-Disposition',
        `${inert || file.mime === 'text/plain' ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      );
    if (range === 'unsatisfiable') {
      return reply.code(416).header('Content-Range', `bytes */${file.size_bytes}`).send();
    }
    const path = ctx.paths.file(file.public_id);
    if (request.method === 'GET' && (range === null || range.start === 0)) ctx.files.countDownload(file.id);
    if (range === null) {
      return reply.header('Content-Length', file.size_bytes).send(file.size_bytes === 0 ? '' : createReadStream(path));
    }
    return reply
      .code(206)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${file.size_bytes}`)
      .header('Content-Length', range.end - range.start + 1)
      .send(createReadStream(path, { start: range.start, end: range.end }));
  });

  async function player(request: FastifyRequest, reply: FastifyReply, kind: PageKind) {
    const file = fileOf(request);
    if (!admit(request, reply, file, `/${file.public_id}/${kind}`)) return reply;
    if (file.allow_online_watch !== 1) {
      return sendPage(reply, 403, noticePage(file, 'The owner has turned off online watching for this file.'));
    }
    const converted = ctx.conversions.statusOf(file.id)?.status === 'completed';
    if (request.method === 'GET') ctx.files.countStreamView(file.id);
    const hlsUrl = converted ? `/${file.public_id}/hls/master.m3u8` : null;
    return sendPage(reply, 200, playerPage(file, kind, hlsUrl), kind === 'embed');
  }

  app.get('/:id/watch', (request, reply) => player(request, reply, 'watch'));
  app.get('/:id/embed', (request, reply) => player(request, reply, 'embed'));
  for (const page of ['file', 'watch', 'embed'] as const) {
    app.post(`/:id/${page}`, (request, reply) => unlock(request, reply, page));
  }

  app.get('/:id/hls/*', async (request, reply) => {
    const file = fileOf(request);
    const rest = (request.params as { '*': string })['*'];
    if (!HLS_FILE.test(rest) || file.allow_online_watch !== 1) throw ApiProblem.notFound('Stream');
    if (!admit(request, reply, file, `/${file.public_id}/watch`)) return reply;
    const path = `${ctx.paths.hlsDir(file.public_id)}/${rest}`;
    if (
      !(await access(path).then(
        () => true,
        () => false,
      ))
    )
      throw ApiProblem.notFound('Stream');
    return reply
      .header('Content-Type', rest.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t')
      .send(createReadStream(path));
  });
}
