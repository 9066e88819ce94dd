import type { IpcError } from '../../src-shared/ipc/ipc-contract.js';

/** What each token permission lets the app do, for messages that name a missing one (spec: Authentication). */
export const PERMISSION_FEATURES: Record<string, string> = {
  'files:read': 'see the account, browse files and follow conversions',
  'files:write': 'upload, edit and delete files',
  'remote:write': 'import videos from links',
};

/**
 * A failure as a person should read it: what happened in plain words and
 * what to do about it. The server's own message stays the headline when it
 * is specific; the hint says the next step.
 */
export function explainError(error: IpcError): { message: string; hint: string | null } {
  switch (error.code) {
    case 'UNAUTHENTICATED':
      return {
        message: 'The server did not accept this token.',
        hint: 'Check that you pasted all of it, or create a new token in the account area of the website.',
      };
    case 'TOKEN_DISABLED':
      return {
        message: 'This token has been disabled.',
        hint: 'Create a new token in the account area and sign in with it; your queue waits until then.',
      };
    case 'TOKEN_EXPIRED':
      return {
        message: 'This token has expired.',
        hint: 'Create a new token in the account area and sign in with it; your queue waits until then.',
      };
    case 'TOKEN_ABILITY_DENIED': {
      const permission = Object.keys(PERMISSION_FEATURES).find((name) => error.message.includes(name));
      return {
        message: error.message,
        hint: permission
          ? `The ${permission} permission lets Media Sync ${PERMISSION_FEATURES[permission]}. Add it to the token, or create one that has it.`
          : 'Give the token the permission this needs, or create one that has it.',
      };
    }
    // the spec gives the IP refusal no code; the reference server says IP_NOT_ALLOWED
    case 'FORBIDDEN':
    case 'IP_NOT_ALLOWED':
      return {
        message: error.message,
        hint: 'The token may be limited to other IP addresses; check its trusted addresses in the account area.',
      };
    case 'RATE_LIMITED':
      return { message: error.message, hint: 'Media Sync waits and tries again by itself.' };
    case 'API_DISABLED':
      return {
        message: error.message,
        hint: 'The administrator has paused the API for now; uploads wait and go on when it is back.',
      };
    case 'NETWORK_ERROR':
    case 'TIMEOUT':
      return { message: error.message, hint: 'Check the address and your connection.' };
    default:
      return { message: error.message, hint: null };
  }
}
