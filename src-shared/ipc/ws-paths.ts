/*
 * The daemon's addresses and session names, apart from the schemas: the
 * page's first script (src-renderer/early-connect.ts) opens the socket with
 * them before zod and the contract are loaded.
 */

/** Where the page opens its socket; the session key goes in the query. */
export const WS_PATH = '/ipc';
/**
 * Files dropped on the page in a browser, which cannot tell the daemon a
 * local path: `POST /drop?name=<file name>&account=<account id>` with the
 * file as the body; the answer is an IpcResult of the queued items.
 */
export const DROP_PATH = '/drop';
/** The query parameter and cookie that carry the session key. */
export const SESSION_KEY_PARAM = 'key';
export const SESSION_COOKIE = 'media_sync_session';
