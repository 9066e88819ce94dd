import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CreateRemoteUploadsBodySchema,
  JobIdParamsSchema,
  PageQuerySchema,
  RemoteUrlSchema,
} from '../../src-shared/api/index.js';
import * as z from 'zod';
import { authOf } from '../http/api-gate.js';
import { ApiProblem, parseOr422 } from '../http/api-problem.js';
import type { ServerContext } from '../http/context.js';
import { paginationMeta } from '../http/pagination.js';
import { presentJob } from '../remote/remote-job-store.js';

/** Not shown in the spec; the reference server takes at most this many URLs per request. */
export const MAX_URLS_PER_REQUEST = 50;

const CreateBodySchema = CreateRemoteUploadsBodySchema.extend({
  urls: z.array(RemoteUrlSchema).min(1).max(MAX_URLS_PER_REQUEST),
});

export function remoteUploadRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const read = { config: { permission: 'files:read' as const } };
  const write = { config: { permission: 'remote:write' as const } };

  /** The job ID of the path; a malformed one is as unknown as a foreign one. */
  function jobId(request: FastifyRequest): string {
    const params = JobIdParamsSchema.safeParse(request.params);
    if (!params.success) throw ApiProblem.notFound('Remote upload job');
    return params.data.id;
  }

  app.post('/remote-uploads', write, async (request, reply) => {
    const body = parseOr422(CreateBodySchema, request.body);
    const jobs = await ctx.imports.create(authOf(request).account.id, body);
    return reply.code(202).send({
      success: true,
      message: `${jobs.length} remote upload${jobs.length === 1 ? '' : 's'} accepted for processing.`,
      data: jobs.map(presentJob),
    });
  });

  app.get('/remote-uploads', read, async (request) => {
    const query = parseOr422(PageQuerySchema, request.query);
    const { rows, total } = ctx.jobs.list(authOf(request).account.id, query.page, query.per_page);
    return { success: true, data: rows.map(presentJob), meta: paginationMeta(query.page, query.per_page, total) };
  });

  app.get('/remote-uploads/:id', read, async (request) => {
    return { success: true, data: presentJob(ctx.imports.owned(authOf(request).account.id, jobId(request))) };
  });

  app.post('/remote-uploads/:id/cancel', write, async (request) => {
    return { success: true, data: presentJob(ctx.imports.cancel(authOf(request).account.id, jobId(request))) };
  });

  app.post('/remote-uploads/:id/retry', write, async (request) => {
    return { success: true, data: presentJob(ctx.imports.retry(authOf(request).account.id, jobId(request))) };
  });
}
