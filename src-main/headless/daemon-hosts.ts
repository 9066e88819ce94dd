/**
 * The `Host` header values the daemon answers, against DNS rebinding (as
 * Syncthing and Jupyter guard theirs): a page of another site whose name an
 * attacker makes resolve to 127.0.0.1 still sends its own name as `Host`, so
 * it is refused before the session key is even looked at. The daemon listens
 * on 127.0.0.1 only (there is no option to bind elsewhere), so its names are
 * the loopback ones with the port it actually listens on: `127.0.0.1:PORT`,
 * `localhost:PORT` and `[::1]:PORT` (what a browser sends for
 * `http://[::1]:PORT/` when something forwards it here).
 */
export function daemonHosts(port: number): ReadonlySet<string> {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  const hosts = names.map((name) => `${name}:${port}`);
  // a browser leaves the default port out of Host
  if (port === 80) hosts.push(...names);
  return new Set(hosts);
}

/**
 * The request's host when it is one of `hosts` (names compare without regard
 * to case, as DNS does), lower-cased: the page's own origin is `http://` and
 * this. Null for any other host, or none.
 */
export function acceptedHost(header: string | undefined, hosts: ReadonlySet<string>): string | null {
  if (header === undefined) return null;
  const host = header.toLowerCase();
  return hosts.has(host) ? host : null;
}
