import type { FastifyInstance } from 'fastify';
import { authOf } from '../http/api-gate.js';
import type { ServerContext } from '../http/context.js';

export function accountRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/account', { config: { permission: 'files:read' } }, async (request) => {
    return { success: true, data: ctx.accounts.summary(authOf(request).account.id) };
  });
}
