import { closeSync, openSync, readSync } from 'node:fs';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { formHead, formTail } from './floor-form.js';

/**
 * The Node floor of a large upload: the least a Node process can do to send
 * a file in the API's chunks. No app code and no HTTP library: each chunk is
 * one POST /files/upload written by hand on a kept-alive `node:net` socket,
 * its file part read as the client reads it (on the event loop, 256 KiB at a
 * time, into two buffers used in turn) and written as it is read, waiting
 * for the socket to drain when it asks to; `inFlight` sockets take the
 * chunks in turn. upload-throughput.ts runs it beside the client and curl,
 * in the bench's process as the client is, so its CPU per GB says what Node
 * itself costs before undici and the app (floor ÷ curl), and the client's
 * what is the app's (client ÷ floor).
 */
export interface FloorUpload {
  /** the API's base URL (`http://127.0.0.1:PORT/api/v1`) */
  baseUrl: string;
  token: string;
  path: string;
  size: number;
  chunkSize: number;
  inFlight: number;
  /** the form fields of chunk `index`, as the client sends them */
  fields(index: number): Record<string, string>;
}

const PIECE_BYTES = 256 * 1024;

export async function floorUpload(upload: FloorUpload): Promise<void> {
  const total = Math.ceil(upload.size / upload.chunkSize);
  const fd = openSync(upload.path, 'r');
  let next = 0;
  const sender = async () => {
    const url = new URL(upload.baseUrl);
    const socket = connect(Number(url.port), url.hostname);
    await once(socket, 'connect');
    const ring = [Buffer.allocUnsafe(PIECE_BYTES), Buffer.allocUnsafe(PIECE_BYTES)];
    try {
      for (let index = next++; index < total; index = next++) {
        await sendChunk(socket, url, upload, fd, index, ring);
      }
    } finally {
      socket.destroy();
    }
  };
  try {
    await Promise.all(Array.from({ length: upload.inFlight }, sender));
  } finally {
    closeSync(fd);
  }
}

async function sendChunk(socket: Socket, url: URL, upload: FloorUpload, fd: number, index: number, ring: Buffer[]) {
  const boundary = `----upload-floor-${index}`;
  const head = formHead(boundary, upload.fields(index), 'upload.bin');
  const tail = formTail(boundary);
  const start = index * upload.chunkSize;
  const end = Math.min(upload.size, start + upload.chunkSize);
  const length = Buffer.byteLength(head) + (end - start) + Buffer.byteLength(tail);
  const answer = response(socket);
  // awaited once the body is written; an answer that comes first (an error, the socket closed) fails the writes too
  answer.catch(() => undefined);
  socket.write(
    `POST ${url.pathname}/files/upload HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${upload.token}\r\n` +
      `Accept: application/json\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
      `Content-Length: ${length}\r\n\r\n${head}`,
  );
  for (let position = start, piece = 0; position < end; piece++) {
    const buffer = ring[piece % ring.length]!;
    const bytesRead = readSync(fd, buffer, 0, Math.min(buffer.length, end - position), position);
    if (bytesRead === 0) throw new Error(`${upload.path} is shorter than ${upload.size} bytes`);
    position += bytesRead;
    // `once` rejects on the socket's error (the server answered early and closed): no wait for ever
    if (!socket.write(buffer.subarray(0, bytesRead))) await once(socket, 'drain');
  }
  socket.write(tail);
  const text = await answer;
  if (!/^HTTP\/1\.1 2\d\d/.test(text)) throw new Error(`the floor's chunk ${index}: ${text.slice(0, 300)}`);
}

/** The whole answer to the request just sent (its head and its Content-Length of body), as text. */
function response(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (data: Buffer) => {
      text += data.toString('latin1');
      const headEnd = text.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const bodyLength = Number(/\r\ncontent-length: *(\d+)/i.exec(text)?.[1] ?? 0);
      if (text.length < headEnd + 4 + bodyLength) return;
      settle();
      resolve(text);
    };
    const onEnd = () => {
      settle();
      reject(new Error(`the server closed the floor's connection: ${text.slice(0, 300)}`));
    };
    const settle = () => {
      socket.off('data', onData).off('error', onEnd).off('close', onEnd);
    };
    socket.on('data', onData).once('error', onEnd).once('close', onEnd);
  });
}
