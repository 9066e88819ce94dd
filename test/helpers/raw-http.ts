import http from 'node:http';
import { randomBytes } from 'node:crypto';

/**
 * Hand-built HTTP for the contract suite: node:http and byte buffers, no API
 * client, so the tests see exactly what goes over the wire.
 */
export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  /** the body parsed as JSON, or undefined when it is not JSON */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string | number>;
  body?: string | Buffer;
  /** the client's own address: another 127.x.y.z is another client to the server */
  localAddress?: string;
  /** the request target as sent instead of the URL's, for one no client would build (`//[x`) */
  target?: string;
}

export function rawRequest(url: string, request: RawRequest = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: request.method ?? 'GET',
        headers: request.headers,
        agent: false,
        localAddress: request.localAddress,
        ...(request.target ? { path: request.target } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const text = body.toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

/** A form POSTed as a browser sends it (`application/x-www-form-urlencoded`). */
export function postForm(
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
  localAddress?: string,
): Promise<RawResponse> {
  return rawRequest(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
    localAddress,
  });
}

export interface FilePart {
  filename: string;
  content: Buffer;
  contentType?: string;
  /** the form field name; `file` unless a test wants another */
  field?: string;
}

/** A multipart/form-data body built byte by byte: fields first, as Dropzone sends them, then the file. */
export function multipart(
  fields: Record<string, string | number>,
  file?: FilePart,
  order: 'fields-first' | 'file-first' = 'fields-first',
): { body: Buffer; contentType: string } {
  const boundary = `----media-sync-test-${randomBytes(8).toString('hex')}`;
  const fieldParts = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  const fileParts = file
    ? [
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\n` +
            `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        file.content,
        Buffer.from('\r\n'),
      ]
    : [];
  const parts = order === 'fields-first' ? [...fieldParts, ...fileParts] : [...fileParts, ...fieldParts];
  return {
    body: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
