import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiProblem } from './api-problem.js';

/** Bodies bigger than this are not drained after an early refusal: the connection is closed instead. */
const DRAIN_LIMIT_BYTES = 64 * 1024;

/** Maps framework and library errors onto the API's own codes; anything unknown is a 500 without details. */
export function toProblem(error: unknown, bodyLimitBytes: number): ApiProblem {
  if (error instanceof ApiProblem) return error;
  const fastifyError = error as Partial<FastifyError>;
  if (error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return ApiProblem.validation({ body: ['The request body is not valid JSON.'] });
  }
  switch (fastifyError.code) {
    case 'FST_ERR_BAD_URL':
      return new ApiProblem(
        'BAD_REQUEST',
        'The address has a broken percent escape: each % must start a %XX of UTF-8.',
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return ApiProblem.tooLarge(bodyLimitBytes);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return ApiProblem.validation({ body: ['This Content-Type is not accepted here.'] });
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PROTO_VIOLATION':
      return ApiProblem.validation({ body: [fastifyError.message ?? 'The multipart body is not acceptable.'] });
  }
  const status = fastifyError.statusCode ?? 500;
  if (status === 404) return ApiProblem.notFound();
  if (status >= 400 && status < 500) return ApiProblem.validation({ body: [fastifyError.message ?? 'Bad request.'] });
  return new ApiProblem(
    'INTERNAL_ERROR',
    'Something went wrong on the server. Quote the request id when reporting it.',
  );
}

/** Sends the error envelope, with the same request id as the X-Request-ID header. */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: ApiProblem): FastifyReply {
  const declared = Number(request.headers['content-length'] ?? 0);
  const unread =
    !request.raw.readableEnded && (declared > DRAIN_LIMIT_BYTES || request.headers['transfer-encoding'] !== undefined);
  if (unread) reply.header('Connection', 'close');
  return reply
    .code(problem.status)
    .headers(problem.headers)
    .send({
      success: false,
      error: { code: problem.code, message: problem.message, ...(problem.details ? { details: problem.details } : {}) },
      request_id: request.id,
    });
}
