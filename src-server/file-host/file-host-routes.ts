import { createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { verifyPassword } from '../auth/passwords.js';
import type { FileRow } from '../db/files.js';
import { ApiProblem } from '../http/api-problem.js';
import type { ServerContext } from '../http/context.js';
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
const INLINE_TYPES = /^(video|audio|image)\/|^application\/pdf$|^text\/plain$/;

const QuerySchema = z.object({ password: z.string().max(255).optional() });

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
 * password once and remembers it in a cookie scoped to that file.
 */
export function fileHostRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const secret = ctx.accounts.serverSecret();
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

  /** Sends the refusal page and returns false when the visitor may not have the file. */
  async function admit(request: FastifyRequest, reply: FastifyReply, file: FileRow, action: string): Promise<boolean> {
    const blocked = JSON.parse(file.blocked_countries) as string[];
    const country = String(request.headers['cf-ipcountry'] ?? '').toUpperCase();
    if (country && blocked.includes(country)) {
      sendPage(reply, 451, noticePage(file, 'This file is not available in your country.'));
      return false;
    }
    if (file.password_hash === null || hasAccessCookie(request, file)) return true;
    const { password } = QuerySchema.parse(request.query);
    if (password !== undefined && (await verifyPassword(password, file.password_hash))) {
      reply.header(
        'Set-Cookie',
        `${cookieName(file)}=${cookieValue(file)}; Path=/${file.public_id}; HttpOnly; SameSite=Lax`,
      );
      return true;
    }
    sendPage(reply, 401, passwordPage(file, action, password !== undefined));
    return false;
  }

  function sendPage(reply: FastifyReply, status: number, html: string, frameable = false): FastifyReply {
    return reply
      .code(status)
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Content-Security-Policy', `${PAGE_CSP}; frame-ancestors ${frameable ? '*' : "'self'"}`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
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

  app.get('/:id/file', async (request, reply) => {
    const file = fileOf(request);
    if (!(await admit(request, reply, file, `/${file.public_id}/file`))) return reply;
    const range = parseRange(request.headers.range, file.size_bytes);
    reply
      .header('Accept-Ranges', 'bytes')
      .header('Content-Type', file.mime)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', 'sandbox')
      .header(
        'Content-Disposition',
        `${INLINE_TYPES.test(file.mime) ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
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
    if (!(await admit(request, reply, file, `/${file.public_id}/${kind}`))) return reply;
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

  app.get('/:id/hls/*', async (request, reply) => {
    const file = fileOf(request);
    const rest = (request.params as { '*': string })['*'];
    if (!HLS_FILE.test(rest) || file.allow_online_watch !== 1) throw ApiProblem.notFound('Stream');
    if (!(await admit(request, reply, file, `/${file.public_id}/watch`))) return reply;
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
