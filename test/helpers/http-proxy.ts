import { createServer, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';

/** A forward proxy on 127.0.0.1 (CONNECT tunnels and absolute-URI requests) that counts what it carried. */
export interface HttpProxy {
  url: string;
  /** host:port of each tunnel or request it carried, in order */
  carried: string[];
  close(): Promise<void>;
}

export async function startHttpProxy(): Promise<HttpProxy> {
  const carried: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const target = new URL(req.url ?? '/');
    carried.push(target.host);
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req, client: Socket, head) => {
    carried.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    carried,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
