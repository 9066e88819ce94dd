import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'undici';
import { formHead, formTail } from './floor-form.js';

/**
 * The Node floor: a plain Node process with no app code that sends uploads
 * to POST /files/upload as the client's requests look (the same multipart
 * form, headers and fields), `inFlight` at a time, with `undici.request`.
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
let next = 0;

async function sender(): Promise<void> {
  while (next < job.uploads.length) {
    const { path, fileName, fields } = job.uploads[next++]!;
    const headBytes = Buffer.from(formHead(boundary, fields, fileName));
    const tailBytes = Buffer.from(formTail(boundary));
    const body = Buffer.concat([headBytes, await readFile(path), tailBytes]);
    const response = await request(job.url, {
      dispatcher,
      method: 'POST',
      headers: {
        Accept: 'application/json',
        Authorization: `Bearer ${job.token}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': String(body.length),
      },
      body,
    });
    const answer = await response.body.text();
    if (response.statusCode >= 300) throw new Error(`POST ${job.url}: ${response.statusCode} ${answer}`);
  }
}

await Promise.all(Array.from({ length: job.inFlight }, sender));
await dispatcher.close();
