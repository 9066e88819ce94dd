/*
 * The daemon's addresses and session names, apart from the schemas: the page
 * opens its socket and sends dropped files with them, and needs none of the
 * contract's schemas for that (it takes the core's answers as typed).
 */

/** Where the page opens its socket; the session key goes in the query. */
export const WS_PATH = '/ipc';
/**
 * Files dropped on the page in a browser, which cannot tell the daemon a
 * local path: `POST /drop?name=<file name>&account=<account id>` with the
 * file as the body; the answer is an IpcResult of the queued items.
 */
export const DROP_PATH = '/drop';
/**
 * Whether the page's session cookie still opens the daemon, asked without the
 * key when its socket is refused (a page cannot read the socket's 401):
 * `GET /session` answers `{"session":"valid"}` or `{"session":"refused"}`
 * (after `media-sync serve --new-key`), and nothing else.
 */
export const SESSION_PATH = '/session';
/** The query parameter and cookie that carry the session key. */
export const SESSION_KEY_PARAM = 'key';
export const SESSION_COOKIE = 'media_sync_session';
