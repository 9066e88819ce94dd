import { rm } from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FileIdParamsSchema, ListFilesQuerySchema, UpdateFileBodySchema } from '../../src-shared/api/index.js';
import { hashPassword } from '../auth/passwords.js';
import type { FileRow } from '../db/files.js';
import { authOf } from '../http/api-gate.js';
import { ApiProblem, parseOr422 } from '../http/api-problem.js';
import type { ServerContext } from '../http/context.js';
import { paginationMeta } from '../http/pagination.js';
import { presentFile, presentFileDetail } from '../http/present-file.js';

export function fileRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const read = { config: { permission: 'files:read' as const } };
  const write = { config: { permission: 'files:write' as const } };

  /** The owned file named in the path; unknown, malformed and foreign IDs are all 404. */
  function ownedFile(request: FastifyRequest): FileRow {
    const params = FileIdParamsSchema.safeParse(request.params);
    const file = params.success ? ctx.files.owned(authOf(request).account.id, params.data.id) : undefined;
    if (!file) throw ApiProblem.notFound('File');
    return file;
  }

  app.get('/files', read, async (request) => {
    const query = parseOr422(ListFilesQuerySchema, request.query);
    const { rows, total } = ctx.files.list(
      authOf(request).account.id,
      query.search || undefined,
      query.page,
      query.per_page,
    );
    return {
      success: true,
      data: rows.map((row) => presentFile(row, ctx.fileHost)),
      meta: paginationMeta(query.page, query.per_page, total),
    };
  });

  app.get('/files/:id', read, async (request) => {
    return { success: true, data: presentFileDetail(ownedFile(request), ctx.fileHost) };
  });

  app.get('/files/:id/status', read, async (request) => {
    const file = ownedFile(request);
    const conversion = ctx.conversions.statusOf(file.id);
    return {
      success: true,
      data: {
        file: { id: file.public_id, name: file.name, allow_online_watch: file.allow_online_watch === 1 },
        ...(conversion ? { conversion } : {}),
      },
    };
  });

  app.patch('/files/:id', write, async (request) => {
    const file = ownedFile(request);
    // No body at all is a PATCH that changes nothing.
    const body = parseOr422(UpdateFileBodySchema, request.body ?? {});
    ctx.files.update(file.id, {
      name: body.name,
      description: body.description,
      visibility: body.visibility === undefined ? undefined : body.visibility ? 'public' : 'private',
      allowOnlineWatch: body.allow_online_watch,
      passwordHash:
        body.password === undefined ? undefined : body.password === null ? null : await hashPassword(body.password),
    });
    return { success: true, data: presentFileDetail(ctx.files.byRowId(file.id)!, ctx.fileHost) };
  });

  app.delete('/files/:id', write, async (request) => {
    const file = ownedFile(request);
    ctx.conversions.abort(file.id);
    ctx.files.delete(file.id);
    await rm(ctx.paths.file(file.public_id), { force: true });
    await rm(ctx.paths.hlsDir(file.public_id), { recursive: true, force: true });
    return { success: true, data: { id: file.public_id, deleted: true } };
  });
}
