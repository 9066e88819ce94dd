import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Agent } from 'undici';
import { formHead, formTail } from './floor-form.js';

/**
 * The Node floor: a plain Node process with no app code that sends uploads
 * to POST /files/upload as the client's requests look (the same multipart
 * form, headers and fields), `inFlight` at a time, through undici's
 * `dispatch` with a handler that gathers the answer, as the client's
 * transport does (undici's lowest-cost path: its `request` cost 0.05 ms
 * more per file here, a response stream and promises per answer).
 * The benches run it beside the client and curl, so their figures tell what
 * the app costs from what Node and undici cost before any app code
 * (`buildNodeFloor` in bench/bench-support.ts bundles it: `node` runs it,
 * without tsx's start in its CPU).
 *
 * Each file is read into one buffer with its multipart head and tail, as
 * the client sends a small file. The job comes as a
 * JSON file (its path the one argument; the token stays out of the process's
 * argument list, as in curl's config).
 */
export interface NodeFloorJob {
  url: string;
  token: string;
  inFlight: number;
  uploads: { path: string; fileName: string; fields: Record<string, string> }[];
}

const job = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as NodeFloorJob;
const boundary = `----node-floor-${randomUUID()}`;
const dispatcher = new Agent();
const url = new URL(job.url);
let next = 0;

async function sender(): Promise<void> {
  while (next < job.uploads.length) {
    const { path, fileName, fields } = job.uploads[next++]!;
    const headBytes = Buffer.from(formHead(boundary, fields, fileName));
    const tailBytes = Buffer.from(formTail(boundary));
    const body = Buffer.concat([headBytes, await readFile(path), tailBytes]);
    const { status, answer } = await send(body);
    if (status >= 300) throw new Error(`POST ${job.url}: ${status} ${answer}`);
  }
}

function send(body: Buffer): Promise<{ status: number; answer: string }> {
  return new Promise((resolve, reject) => {
    let status = 0;
    const pieces: Buffer[] = [];
    dispatcher.dispatch(
      {
        origin: url.origin,
        path: url.pathname,
        method: 'POST',
        headers: {
          Accept: 'application/json',
          Authorization: `Bearer ${job.token}`,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': String(body.length),
        },
        body,
      },
      {
        // undici takes a handler without it for one of its older kind, and refuses this one
        onRequestStart: () => undefined,
        onResponseStart: (_controller, statusCode) => void (status = statusCode),
        onResponseData: (_controller, piece) => void pieces.push(piece),
        onResponseEnd: () => resolve({ status, answer: Buffer.concat(pieces).toString('utf8') }),
        onResponseError: (_controller, error) => reject(error),
      },
    );
  });
}

await Promise.all(Array.from({ length: job.inFlight }, sender));
await dispatcher.close();
