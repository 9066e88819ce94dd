import type { IpcError } from '../../src-shared/ipc/ipc-contract.js';
import { t } from '../i18n/i18n.js';
import { errorText } from '../i18n/translate.js';

/** The token permissions of the spec (Authentication), each with what it lets the app do in the catalogs. */
export const PERMISSIONS = ['files:read', 'files:write', 'remote:write'] as const;
type Permission = (typeof PERMISSIONS)[number];

const PERMISSION_KEYS = {
  'files:read': 'filesRead',
  'files:write': 'filesWrite',
  'remote:write': 'remoteWrite',
} as const satisfies Record<Permission, string>;

/** What a token permission lets the app do, in the UI's language, for messages that name a missing one. */
export function permissionFeature(permission: Permission): string {
  return t(`errors.permissions.${PERMISSION_KEYS[permission]}`);
}

/**
 * A failure as a person should read it: what happened in plain words and
 * what to do about it. The server's own message stays the headline when it
 * is specific (it comes in the server's language); the hint says the next step.
 */
export function explainError(error: IpcError): { message: string; hint: string | null } {
  // the core's own sentences (a folder path problem, a refused token without the server's words) in the UI's language
  const message = errorText(error);
  switch (error.code) {
    case 'UNAUTHENTICATED':
      return { message: t('errors.unauthenticated'), hint: t('errors.unauthenticatedHint') };
    case 'TOKEN_DISABLED':
      return { message: t('errors.tokenDisabled'), hint: t('errors.newTokenHint') };
    case 'TOKEN_EXPIRED':
      return { message: t('errors.tokenExpired'), hint: t('errors.newTokenHint') };
    case 'TOKEN_ABILITY_DENIED': {
      const permission = PERMISSIONS.find((name) => error.message.includes(name));
      return {
        message,
        hint: permission
          ? t('errors.permissionHint', { permission, feature: permissionFeature(permission) })
          : t('errors.anyPermissionHint'),
      };
    }
    // the spec gives the IP refusal no code; the reference server says IP_NOT_ALLOWED
    case 'FORBIDDEN':
    case 'IP_NOT_ALLOWED':
      return { message, hint: t('errors.ipHint') };
    case 'RATE_LIMITED':
      return { message, hint: t('errors.rateLimitedHint') };
    case 'API_DISABLED':
      return { message, hint: t('errors.apiDisabledHint') };
    case 'NETWORK_ERROR':
    case 'TIMEOUT':
      return { message, hint: t('errors.networkHint') };
    default:
      return { message, hint: null };
  }
}
