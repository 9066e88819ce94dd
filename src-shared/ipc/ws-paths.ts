/*
 * The daemon's addresses and session names, apart from the schemas: the page
 * opens its socket and sends dropped files with them, and needs none of the
 * contract's schemas for that (it takes the core's answers as typed).
 */

/**
 * Where the page opens its socket. The session key goes in the handshake,
 * as one of the subprotocols the page offers (`sessionProtocols`), never in
 * the address: an address ends up in logs and histories.
 */
export const WS_PATH = '/ipc';
/**
 * Files dropped on the page in a browser, which cannot tell the daemon a
 * local path: `POST /drop?name=<file name>&account=<account id>` with the
 * file as the body and the session key in SESSION_HEADER; the answer is an
 * IpcResult of the queued items.
 */
export const DROP_PATH = '/drop';
/**
 * Whether the page's session key still opens the daemon, asked when its
 * socket is refused (a page cannot read the socket's 401): `GET /session`
 * with the key in SESSION_HEADER answers `{"session":"valid"}` or
 * `{"session":"refused"}` (after `media-sync serve --new-key`), and nothing else.
 */
export const SESSION_PATH = '/session';
/** The query parameter of the printed address that carries the session key to the page, once. */
export const SESSION_KEY_PARAM = 'key';
/**
 * The header that carries the session key in the page's own requests: a
 * header a page of another origin cannot send without the daemon's leave
 * (CORS), unlike a cookie, which a browser sends to every port of the host.
 */
export const SESSION_HEADER = 'X-Media-Sync-Key';
/** The subprotocol the daemon's socket speaks, the one it answers with. */
export const WS_PROTOCOL = 'media-sync';
/** What comes before the session key in the subprotocol that carries it (tokens of base64url fit a subprotocol). */
export const SESSION_PROTOCOL_PREFIX = 'media-sync.key.';

/** The subprotocols a client offers to open the socket with `key`: the daemon answers with WS_PROTOCOL. */
export function sessionProtocols(key: string): string[] {
  return [WS_PROTOCOL, `${SESSION_PROTOCOL_PREFIX}${key}`];
}
