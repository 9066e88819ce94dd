import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  CHUNK_FIELD_NAMES,
  ChunkFieldsSchema,
  PLAN_FILE_SIZE_LIMIT_BYTES,
  VisibilityFieldSchema,
  type ChunkFields,
} from '../../src-shared/api/index.js';
import type { AccountRow } from '../db/accounts.js';
import { authOf } from '../http/api-gate.js';
import { ApiProblem, parseOr422 } from '../http/api-problem.js';
import type { ServerContext } from '../http/context.js';
import { presentFile } from '../http/present-file.js';
import { whenExchangeEnds } from '../http/traffic-log.js';
import { safeFilename } from '../uploads/media-type.js';

interface ParsedFields {
  visibility: 'public' | 'private' | undefined;
  chunk: ChunkFields | undefined;
}

/** Reads the non-file fields; the chunk fields come all together or not at all. */
function parseFields(fields: Record<string, string>, account: AccountRow): ParsedFields {
  const visibility =
    fields['visibility'] === undefined
      ? undefined
      : parseOr422(VisibilityFieldSchema, fields['visibility'], 'visibility')
        ? 'public'
        : 'private';
  const present = CHUNK_FIELD_NAMES.filter((name) => fields[name] !== undefined);
  if (present.length === 0) return { visibility, chunk: undefined };
  const chunk = parseOr422(ChunkFieldsSchema, Object.fromEntries(present.map((name) => [name, fields[name]])));
  refuseOverPlan(chunk.dztotalfilesize, account);
  return { visibility, chunk };
}

function refuseOverPlan(size: number, account: AccountRow): void {
  const limit = PLAN_FILE_SIZE_LIMIT_BYTES[account.plan];
  if (size > limit) {
    throw ApiProblem.validation({
      file: [`The file is ${size} bytes; the ${account.plan} plan allows at most ${limit} bytes per file.`],
    });
  }
}

/**
 * POST /files/upload: one multipart request per file, or Dropzone chunks.
 * The file part streams to a temp file (never into memory); fields that come
 * before it are checked first, so an over-plan chunk is refused before its bytes are stored.
 */
export function uploadRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/files/upload', { config: { permission: 'files:write' } }, async (request, reply) => {
    const { account } = authOf(request);
    const seen = logUpload(ctx, reply);
    const received = await receiveMultipart(request, ctx, account, seen);
    try {
      const { visibility, chunk } = parseFields(received.fields, account);
      if (!chunk) {
        refuseOverPlan(received.size, account);
        const file = await ctx.ingest.ingest(received.tmpPath, received.size, {
          accountId: account.id,
          name: received.filename,
          filename: received.filename,
          visibility: visibility ?? 'private',
        });
        return reply.code(201).send({ success: true, data: presentFile(file, ctx.fileHost) });
      }
      const outcome = await ctx.chunked.receive({
        accountId: account.id,
        fields: chunk,
        filename: received.filename,
        visibility,
        tmpPath: received.tmpPath,
        size: received.size,
      });
      if (outcome.kind === 'partial') {
        return reply.code(200).send({
          success: true,
          data: { dzuuid: outcome.dzuuid, received_chunks: outcome.receivedChunks, total_chunks: outcome.totalChunks },
        });
      }
      return reply
        .code(outcome.created ? 201 : 200)
        .send({ success: true, data: presentFile(outcome.file, ctx.fileHost) });
    } finally {
      await unlink(received.tmpPath).catch(() => undefined);
    }
  });
}

/** What the handler has read of a request so far, for the upload log. */
interface UploadSeen {
  fields: Record<string, string>;
  fileName: string;
  /** the stored file part, whose byte count is read when the exchange ends */
  file: MultipartFile['file'] | null;
}

/** Logs the upload when its exchange ends, with whatever fields and bytes were read by then. */
function logUpload(ctx: ServerContext, reply: FastifyReply): UploadSeen {
  const seen: UploadSeen = { fields: {}, fileName: '', file: null };
  const at = ctx.clock.now();
  whenExchangeEnds(reply, (status) => {
    ctx.uploadLog.push({
      dzuuid: seen.fields['dzuuid'] ?? null,
      chunkIndex: wholeNumber(seen.fields['dzchunkindex']),
      totalChunks: wholeNumber(seen.fields['dztotalchunkcount']),
      fileName: seen.fileName,
      bytes: seen.file?.bytesRead ?? 0,
      status,
      at,
    });
  });
  return seen;
}

function wholeNumber(field: string | undefined): number | null {
  if (field === undefined || !/^\d+$/.test(field)) return null;
  return Number(field);
}

interface ReceivedUpload {
  fields: Record<string, string>;
  filename: string;
  tmpPath: string;
  size: number;
}

async function receiveMultipart(
  request: FastifyRequest,
  ctx: ServerContext,
  account: AccountRow,
  seen: UploadSeen,
): Promise<ReceivedUpload> {
  if (!request.isMultipart()) {
    throw ApiProblem.validation({ file: ['The request must be multipart/form-data with a file part named "file".'] });
  }
  const fields = seen.fields;
  let stored: ReceivedUpload | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file' || stored) {
        part.file.resume();
        throw ApiProblem.validation({ file: ['Send exactly one file part, named "file".'] });
      }
      seen.fileName = safeFilename(part.filename);
      const { chunk } = parseFields(fields, account);
      // a new upload past the account's cap is refused before its bytes are read
      if (chunk) ctx.chunked.refuseOverCap(account.id, chunk.dzuuid);
      seen.file = part.file;
      stored = await storePart(part, ctx);
    }
  } catch (error) {
    if (stored) await unlink(stored.tmpPath).catch(() => undefined);
    throw error;
  }
  if (!stored) throw ApiProblem.validation({ file: ['The file field is required.'] });
  return { ...stored, fields };
}

async function storePart(part: MultipartFile, ctx: ServerContext): Promise<ReceivedUpload> {
  const tmpPath = ctx.paths.newTmpFile();
  try {
    await pipeline(part.file, createWriteStream(tmpPath));
    if (part.file.truncated) throw ApiProblem.tooLarge(ctx.bodyLimitBytes);
    return { fields: {}, filename: safeFilename(part.filename), tmpPath, size: part.file.bytesRead };
  } catch (error) {
    await unlink(tmpPath).catch(() => undefined);
    throw error;
  }
}
