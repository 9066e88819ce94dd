import type { FastifyReply, FastifyRequest } from 'fastify';
import { isAddressAllowed } from '../auth/ip-allow-list.js';
import { bearerToken, hashToken } from '../auth/tokens.js';
import type { TokenRecord } from '../db/accounts.js';
import { ApiProblem } from './api-problem.js';
import type { ServerContext } from './context.js';

/**
 * Runs before every /api/v1 request, in the order a gateway would:
 * 1. rate limit per (token, IP): `X-RateLimit-Limit`, `-Remaining` and `-Reset-After` on
 *    every answer, 429 past the limit;
 * 2. 503 while an administrator has the API switched off;
 * 3. token present and known (401), not disabled, not expired, IP allowed
 *    (403 each), for every request, so an unknown route is a 404 only to a
 *    token; then the route's permission (403).
 * It runs before the body is parsed, so a refused upload is never read.
 */
export function apiGate(ctx: ServerContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const presented = bearerToken(request.headers.authorization);
    const token = presented ? ctx.accounts.tokenByHash(hashToken(presented)) : undefined;

    const rate = ctx.limiter.hit(`${token ? `token:${token.id}` : 'anonymous'}|${request.ip}`);
    reply.header('X-RateLimit-Limit', rate.limit);
    reply.header('X-RateLimit-Remaining', rate.remaining);
    // Seconds with millisecond precision (as Discord sends it): a client that paces itself can
    // wait exactly for the window instead of the whole seconds Retry-After rounds up to.
    reply.header('X-RateLimit-Reset-After', (rate.resetAfterMs / 1000).toFixed(3));
    if (!rate.allowed) {
      throw new ApiProblem(
        'RATE_LIMITED',
        `Too many requests. Try again in ${rate.retryAfterSeconds} seconds.`,
        undefined,
        { 'Retry-After': String(rate.retryAfterSeconds), 'X-RateLimit-Reset': String(rate.resetAt) },
      );
    }

    if (ctx.accounts.isApiDisabled()) {
      throw new ApiProblem('API_DISABLED', 'The API has been temporarily disabled by an administrator.');
    }

    // every request, an unknown route's too: without a token nothing is told, not even which routes exist
    if (!presented || !token) throw new ApiProblem('UNAUTHENTICATED', 'Unauthenticated.');
    refuseUnusable(token, request.ip, ctx.clock.now());
    const permission = request.routeOptions.config.permission;
    if (permission && !token.abilities.includes(permission)) {
      throw new ApiProblem('TOKEN_ABILITY_DENIED', `This token does not have the ${permission} permission.`);
    }
    const account = ctx.accounts.accountById(token.accountId);
    if (!account) throw new ApiProblem('UNAUTHENTICATED', 'Unauthenticated.');
    request.auth = { account, token };
  };
}

function refuseUnusable(token: TokenRecord, ip: string, now: number): void {
  if (token.disabled) throw new ApiProblem('TOKEN_DISABLED', 'This token has been disabled.');
  if (token.expiresAt !== null && token.expiresAt <= now)
    throw new ApiProblem('TOKEN_EXPIRED', 'This token has expired.');
  if (!isAddressAllowed(ip, token.allowedIps)) {
    throw new ApiProblem('IP_NOT_ALLOWED', 'This token may not be used from your IP address.');
  }
}

/** The authenticated account of a route that declared a permission. */
export function authOf(request: FastifyRequest) {
  if (!request.auth) throw new Error('route used authOf without declaring a permission');
  return request.auth;
}
