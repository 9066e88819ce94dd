import { createHash, randomBytes } from 'node:crypto';

/** A new API token: 256 random bits, shown once and stored only as a hash. */
export function generateToken(): string {
  return `mfs_${randomBytes(32).toString('base64url')}`;
}

/**
 * Tokens carry 256 bits of entropy, so a plain SHA-256 is enough to make a
 * stolen database useless (no dictionary to run), and it keeps lookup O(1).
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}
