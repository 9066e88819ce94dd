/**
 * The codes of the app's own errors, one name per meaning: what the core,
 * the shells, the transports and the API client say when the service did not
 * answer with a code of its own (the service's codes pass through as sent:
 * src-shared/api/error-codes.ts). A person reads the message; code is for
 * the UI and the CLI to act on.
 */
export const APP_ERROR_CODES = [
  // a request the contract refuses (the service names its own refusals the same)
  'VALIDATION_ERROR',
  'UNKNOWN_COMMAND',
  // the core's own answers
  'NOT_SIGNED_IN',
  'NOT_FOUND',
  'UNAVAILABLE',
  'UNSAFE_LINK',
  'NO_UPDATE',
  'FORBIDDEN',
  // a path given to the queue (uploads:addPaths) or to watch (folders:add, folders:browse)
  'FILE_NOT_FOUND',
  'IS_A_FOLDER',
  'NOT_A_FILE',
  'FILE_NOT_READABLE',
  'FOLDER_PATH_NOT_ABSOLUTE',
  'FOLDER_NOT_FOUND',
  'NOT_A_FOLDER',
  'FOLDER_NOT_READABLE',
  // a file dropped on the daemon's page
  'METHOD_NOT_ALLOWED',
  'FILE_TOO_LARGE',
  'DROP_FAILED',
  // the transports: the page's socket, the CLI's line to the owner of the data folder
  'DISCONNECTED',
  'OWNER_GONE',
  // the API client, for a request that got no answer of the service's
  'NETWORK_ERROR', // connection refused, reset or closed; DNS
  'TIMEOUT', // connect, headers or no progress
  'BAD_RESPONSE', // a reply that is not the JSON the spec describes
  'HTTP_ERROR', // a non-2xx without an error envelope (a proxy's HTML page)
  'ABORTED', // cancelled by the app (pause, cancel, quit)
  // what no other code says: a failure the app did not expect (its message says what happened)
  'INTERNAL_ERROR',
] as const;
export type AppErrorCode = (typeof APP_ERROR_CODES)[number];
