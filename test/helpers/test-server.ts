import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { runAdmin, type AdminFlags } from '../../src-server/admin/admin-commands.js';
import type { ServerOptionsInput } from '../../src-server/options.js';
import { startReferenceServer, type ReferenceServer } from '../../src-server/server.js';
import { multipart, postForm, rawRequest, type FilePart, type RawRequest, type RawResponse } from './raw-http.js';

export interface TestServer {
  server: ReferenceServer;
  dataDir: string;
  baseUrl: string;
  fileHost: string;
  /** the demo account's token (every permission) */
  token: string;
  /** an API request with `Accept: application/json` and, unless `token` is null, a Bearer token */
  api(path: string, request?: RawRequest & { token?: string | null; json?: unknown }): Promise<RawResponse>;
  upload(fields: Record<string, string | number>, file?: FilePart, token?: string): Promise<RawResponse>;
  admin(words: string[], flags?: Omit<AdminFlags, 'data-dir'>): any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** a second account with its own token */
  newAccount(name: string, plan?: 'free' | 'premium'): string;
  close(): Promise<void>;
}

/** The reference server on 127.0.0.1, port 0, in a fresh temp data dir, quiet. */
export async function startTestServer(options: Partial<ServerOptionsInput> = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'media-server-test-'));
  const server = await startReferenceServer({ host: '127.0.0.1', port: 0, logLevel: false, dataDir, ...options });
  const token = server.demoToken!;
  const test: TestServer = {
    server,
    dataDir,
    baseUrl: server.baseUrl,
    fileHost: server.fileHost,
    token,
    api(path, request = {}) {
      const { token: given, json, ...rest } = request;
      const headers: Record<string, string | number> = { Accept: 'application/json', ...rest.headers };
      const bearer = given === undefined ? token : given;
      if (bearer !== null) headers['Authorization'] = `Bearer ${bearer}`;
      let body = rest.body;
      if (json !== undefined) {
        body = JSON.stringify(json);
        headers['Content-Type'] = 'application/json';
      }
      return rawRequest(`${server.baseUrl}${path}`, { ...rest, headers, body });
    },
    upload(fields, file, uploadToken = token) {
      const { body, contentType } = multipart(fields, file);
      return test.api('/files/upload', {
        method: 'POST',
        token: uploadToken,
        body,
        headers: { 'Content-Type': contentType },
      });
    },
    admin(words, flags = {}) {
      return runAdmin(words, { 'data-dir': dataDir, ...flags });
    },
    newAccount(name, plan = 'free') {
      return test.admin(['account', 'create', name], { plan }).token as string;
    },
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return test;
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Opens a password-protected file host address as a browser does: posts the
 * password form, then follows the redirect with the access cookie. Answers the
 * form's own response when it does not redirect (a wrong password, a refusal).
 */
export async function openWithPassword(
  url: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const posted = await postForm(url, { password }, headers);
  if (posted.status !== 303) return posted;
  const cookie = String(posted.headers['set-cookie']).split(';')[0]!;
  return rawRequest(new URL(posted.headers.location!, url).href, { headers: { ...headers, Cookie: cookie } });
}

/** A stream for the server's `logStream` that keeps what it is given, to read back with `text()`. */
export function logSink(): { stream: Writable; text(): string } {
  let logged = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString();
      done();
    },
  });
  return { stream, text: () => logged };
}
