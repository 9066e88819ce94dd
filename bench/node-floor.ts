import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Agent, request, type Dispatcher } from 'undici';

/**
 * The Node floor: a plain Node process with no app code that sends uploads
 * to POST /files/upload as the client's requests look (the same multipart
 * form, headers and fields), `inFlight` at a time, with `undici.request`.
 * The benches run it beside the client and curl, so their figures tell what
 * the app costs from what Node and undici cost before any app code
 * (`buildNodeFloor` in bench/bench-support.ts bundles it: `node` runs it,
 * without tsx's start in its CPU).
 *
 * A whole file (no `range`) is read into one buffer with its multipart head
 * and tail, as the client sends a small file; a range (a chunk) is streamed:
 * the head, `fs.createReadStream` of the range, the tail. The stream reads
 * in the client's piece size (256 KiB), each piece a new buffer read in
 * libuv's pool: the plain way, where the client reuses two buffers read on
 * the event loop (src-main/api-client/multipart-body.ts). The job comes as a
 * JSON file (its path the one argument; the token stays out of the process's
 * argument list, as in curl's config).
 */
export interface NodeFloorJob {
  url: string;
  token: string;
  inFlight: number;
  uploads: { path: string; fileName: string; fields: Record<string, string>; range?: { start: number; end: number } }[];
}

const job = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as NodeFloorJob;
const boundary = `----node-floor-${randomUUID()}`;
const dispatcher = new Agent();
let next = 0;

async function sender(): Promise<void> {
  while (next < job.uploads.length) {
    const { path, fileName, fields, range } = job.uploads[next++]!;
    let head = '';
    for (const [name, value] of Object.entries(fields)) {
      head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    }
    head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const headBytes = Buffer.from(head);
    const tailBytes = Buffer.from(`\r\n--${boundary}--\r\n`);
    const fileBytes = range ? null : await readFile(path);
    const body = fileBytes
      ? Buffer.concat([headBytes, fileBytes, tailBytes])
      : (async function* () {
          yield headBytes;
          yield* createReadStream(path, {
            start: range!.start,
            end: range!.end - 1,
            highWaterMark: 256 * 1024,
          }) as AsyncIterable<Buffer>;
          yield tailBytes;
        })();
    const length = headBytes.length + (fileBytes?.length ?? range!.end - range!.start) + tailBytes.length;
    const response = await request(job.url, {
      dispatcher,
      method: 'POST',
      headers: {
        Accept: 'application/json',
        Authorization: `Bearer ${job.token}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': String(length),
      },
      // undici takes an AsyncIterable body (docs/api/Dispatcher.md) though its types leave it out
      body: body as Dispatcher.RequestOptions['body'],
    });
    const answer = await response.body.text();
    if (response.statusCode >= 300) throw new Error(`POST ${job.url}: ${response.statusCode} ${answer}`);
  }
}

await Promise.all(Array.from({ length: job.inFlight }, sender));
await dispatcher.close();
