import { englishText, message } from '../../src-shared/i18n/message.js';
import { formatGibibytes } from '../../src-shared/model/format.js';
import type { UploadProblem } from '../../src-shared/model/upload-state.js';
import { ApiError } from '../api-client/api-error.js';
import { FileChangedError } from '../api-client/multipart-body.js';

/** The file is over the account's plan limit: nothing was sent. */
export class TooLargeError extends Error {
  constructor(size: number, limit: number) {
    super(
      `This file is ${formatGibibytes(size)}; the account's plan accepts files up to ${formatGibibytes(limit)}. Nothing was sent.`,
    );
    this.name = 'TooLargeError';
  }
}

export class FileUnreadableError extends Error {
  constructor(path: string, cause: unknown) {
    const code = (cause as { code?: string }).code;
    const why =
      code === 'ENOENT'
        ? 'it no longer exists'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : String((cause as Error).message ?? cause);
    super(`Cannot read ${path}: ${why}.`, { cause });
    this.name = 'FileUnreadableError';
  }
}

export class UploadRejectedError extends Error {
  constructor(
    message: string,
    /** the request whose answer showed the problem, when one did */
    readonly requestId: string | null = null,
  ) {
    super(message);
    this.name = 'UploadRejectedError';
  }
}

/** Whether a failed upload may succeed if tried again later: the network, the server's 5xx (a changed file waits apart). */
export function isRetryableFailure(error: unknown): boolean {
  return error instanceof ApiError && error.retryable;
}

/** A failure as the queue row shows it: the message, and the request id for support. */
export function problemOf(error: unknown): UploadProblem {
  if (error instanceof ApiError) {
    const { message, code, requestId, text } = error;
    return { message, code, requestId, ...(text ? { text } : {}) };
  }
  if (error instanceof UploadRejectedError) return { message: error.message, code: null, requestId: error.requestId };
  if (error instanceof FileChangedError) {
    const text = message('core.errors.fileChanged');
    return { message: englishText(text), code: null, requestId: null, text };
  }
  return { message: error instanceof Error ? error.message : String(error), code: null, requestId: null };
}
