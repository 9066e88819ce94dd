import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

/**
 * How bench/queue-render.ts hands a page its progress batches: as WebSocket
 * frames from another process, the way the daemon's arrive. A page that makes
 * its own batches (a timer, JSON.stringify, a synthetic MessageEvent) does
 * the bench's work on the very thread being measured: about 0.3 ms in every
 * 100 ms window here, in the app and the floor alike.
 */

/** An event no page acts on: the windows' marks alone (the page probe marks it as it marks a batch). */
const TICK = '{"event":"bench:tick"}';

export interface FeedTarget {
  /** sends `text` to every page connected */
  send(text: string): void;
  close(): Promise<void>;
}

export interface SocketProxy extends FeedTarget {
  /** the proxy's origin: the daemon's paths and query work on it */
  origin: string;
}

/**
 * A proxy on 127.0.0.1 in front of the daemon: the page loads through it, and
 * its socket to the daemon passes through it, so `send` reaches the app as any
 * event from the daemon does. `Host` and `Origin` are the daemon's own (it
 * refuses others), the page's subprotocols (its session key) go along.
 */
export async function startSocketProxy(daemon: string): Promise<SocketProxy> {
  const target = new URL(daemon);
  const pages = new Set<WebSocket>();
  const sockets = new WebSocketServer({ noServer: true });
  const server = createServer((incoming, outgoing) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  server.on('upgrade', (incoming, socket, head) => {
    // the page's subprotocols carry its session key
    const protocols = (incoming.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    const upstream = new WebSocket(`ws://${target.host}${incoming.url ?? '/'}`, protocols.filter(Boolean), {
      headers: { origin: target.origin },
    });
    upstream.once('error', () => socket.destroy());
    upstream.once('open', () =>
      sockets.handleUpgrade(incoming, socket, head, (page) => {
        pages.add(page);
        upstream.on('message', (data, binary) => page.send(data, { binary }));
        page.on('message', (data, binary) => upstream.send(data, { binary }));
        upstream.on('close', () => page.close());
        page.on('close', () => {
          pages.delete(page);
          upstream.close();
        });
      }),
    );
  });
  const origin = await listen(server);
  return {
    origin,
    send: (text) => pages.forEach((page) => page.send(text)),
    close: () => closeAll(server, pages),
  };
}

/**
 * The floor's pages on 127.0.0.1, with a socket to each: `url` loads the
 * three moving rows (`BARE_QUEUE_HTML`), `${url}rows` the same among 10,000
 * static rows in a scrolled box (`BARE_ROWS_HTML`); `send` reaches their sockets.
 */
export async function startFloorPage(): Promise<FeedTarget & { url: string }> {
  const pages = new Set<WebSocket>();
  const sockets = new WebSocketServer({ noServer: true });
  const server = createServer((incoming, outgoing) => {
    const html = incoming.url === '/rows' ? BARE_ROWS_HTML : BARE_QUEUE_HTML;
    outgoing.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  });
  server.on('upgrade', (incoming, socket, head) =>
    sockets.handleUpgrade(incoming, socket, head, (page) => {
      pages.add(page);
      page.on('close', () => pages.delete(page));
    }),
  );
  const origin = await listen(server);
  return {
    url: `${origin}/`,
    send: (text) => pages.forEach((page) => page.send(text)),
    close: () => closeAll(server, pages),
  };
}

/**
 * `batches` messages every `intervalMs`, scheduled against the start (a late
 * one does not push the rest back), resolving once the last one's interval is
 * over (its window drawn): uploads:progress batches moving `ids`
 * (each batch a hundredth more of 1 MB sent, confirmed a quarter at a time,
 * as a running upload's in chunks), or with
 * `ticks` an event no page acts on, for the windows' marks alone.
 */
export async function feedProgress(
  target: FeedTarget,
  input: { ids: readonly number[]; batches: number; intervalMs: number; ticks?: boolean },
): Promise<void> {
  const total = 1_000_000;
  const chunk = total / 4;
  const started = performance.now();
  for (let batch = 1; batch <= input.batches; batch++) {
    if (input.ticks) target.send(TICK);
    else {
      const sentBytes = Math.round((total * batch) / input.batches);
      const ackedBytes = Math.floor(sentBytes / chunk) * chunk;
      const payload = input.ids.map((id) => ({
        id,
        state: { kind: 'uploading', attempt: 0, ackedBytes, sentBytes, totalBytes: total },
      }));
      target.send(JSON.stringify({ event: 'uploads:progress', payload }));
    }
    const next = started + batch * input.intervalMs;
    await new Promise((wake) => setTimeout(wake, Math.max(0, next - performance.now())));
  }
}

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closeAll(server: Server, pages: Set<WebSocket>): Promise<void> {
  for (const page of pages) page.terminate();
  server.closeAllConnections();
  await new Promise((closed) => server.close(closed));
}

/**
 * The floor's page: the Queue's moving parts alone, in plain HTML (three rows
 * of a name, a bar of two fills, sent and confirmed, and a line of words, and
 * a speed), and a script that draws what each batch on its socket says with
 * no app behind it: the three bars' sent fills and the three rows' words move
 * with each batch, the confirmed fills with each chunk, and the speed changes
 * each second. It marks each message's window first, as the app's page probe
 * does.
 */
const BARE_QUEUE_HTML = barePage(`<ul style="list-style: none; padding: 0">${movingRows()}</ul>`);

/**
 * The scroll's floor: the same moving rows first, then static rows up to
 * 10,000 (the Queue's count) as plain HTML, all in the DOM, in a box that
 * scrolls as the Queue's list does (`.virtual-list`, the window's height).
 */
const BARE_ROWS_HTML = barePage(
  `<ul class="virtual-list" style="list-style: none; padding: 0; margin: 0; height: 90vh; overflow-y: auto">${movingRows()}${Array.from(
    { length: 10_000 - 3 },
    (_, index) => `<li style="height: 88px; contain: strict">
  <div>clip-${String(index + 3).padStart(5, '0')}.mp4 <span>Queued</span></div>
  <p style="margin: 0">1.00 MB · waiting for its turn</p>
</li>`,
  ).join('')}</ul>`,
);

function movingRows(): string {
  return [0, 1, 2]
    .map(
      (row) => `<li class="moving" style="height: 88px; contain: strict; position: relative">
  <div>clip-${row}.mp4 <span class="state">Uploading 0%</span></div>
  <div style="height: 8px; border-radius: 4px; overflow: hidden; background: #eee; position: relative">
    <div class="sent" style="position: absolute; inset: 0; background: #2557d6; opacity: 0.4; transform-origin: left; transform: scaleX(0)"></div>
    <div class="fill" style="position: absolute; inset: 0; background: #2557d6; transform-origin: left; transform: scaleX(0)"></div>
  </div>
  <p class="detail" style="margin: 0">0 B of 1.00 MB · estimating time left</p>
</li>`,
    )
    .join('');
}

/**
 * A floor page: `rows` and a script that draws what each batch on its socket
 * says with no app behind it: the three bars' sent fills and the three rows'
 * words move with each batch, the confirmed fills with each chunk, and the
 * speed changes each second. It marks each message's window first, as the
 * app's page probe does.
 */
function barePage(rows: string): string {
  return `<!doctype html><html lang="en"><body style="font: 15px/1.45 system-ui, sans-serif">
<p>Speed <strong class="speed">0 B/s</strong></p>
${rows}
<script>
const text = (element) => element.firstChild;
const fills = [...document.querySelectorAll('.fill')];
const sents = [...document.querySelectorAll('.sent')];
let confirmed = 0;
const rows = [...document.querySelectorAll('li.moving')].map((row) => ({
  state: text(row.querySelector('.state')),
  detail: text(row.querySelector('.detail')),
}));
const speed = text(document.querySelector('.speed'));
let batch = 0;
const socket = new WebSocket('ws://' + location.host + '/');
socket.onopen = () => (window.__open = true);
socket.onmessage = (event) => {
  console.timeStamp('bench:progress');
  const message = JSON.parse(event.data);
  if (message.event !== 'uploads:progress') return;
  batch++;
  const { ackedBytes, sentBytes, totalBytes } = message.payload[0].state;
  const done = sentBytes / totalBytes;
  for (const sent of sents) sent.style.transform = 'scaleX(' + done + ')';
  if (ackedBytes !== confirmed) {
    confirmed = ackedBytes;
    for (const fill of fills) fill.style.transform = 'scaleX(' + ackedBytes / totalBytes + ')';
  }
  rows.forEach((row, i) => {
    row.state.nodeValue = 'Uploading ' + Math.floor(done * 100) + '%';
    row.detail.nodeValue = Math.round(done * 1000) + ' KB of 1.00 MB · 3.2' + i + ' MB/s · ' + batch + ' s left';
  });
  if (batch % 10 === 0) speed.nodeValue = (9 + done).toFixed(2) + ' MB/s';
};
</script></body></html>`;
}
