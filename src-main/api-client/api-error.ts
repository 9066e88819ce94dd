import * as z from 'zod';
import { englishText, type Message } from '../../src-shared/i18n/message.js';

/** The error envelope as a tolerant reader sees it: any code, request_id if any. */
export const LooseErrorEnvelopeSchema = z.looseObject({
  success: z.literal(false),
  error: z.looseObject({ code: z.string().min(1), message: z.string(), details: z.unknown().optional() }),
  request_id: z.string().optional(),
});

export interface ApiErrorInit {
  status: number | null;
  code: string;
  /** the server's message, or the client's own in English (then also `text`) */
  message: string;
  /** the client's own sentence as a catalog message, for the UI to say in its language */
  text?: Message;
  requestId?: string | null;
  retryable: boolean;
  /** the request may have been processed even though no answer arrived */
  outcomeUnknown?: boolean;
  details?: unknown;
  cause?: unknown;
}

/**
 * The one error type of the API client. A person sees `message` and,
 * for support, `requestId`; the message never contains the token (see `redact`).
 */
export class ApiError extends Error {
  readonly status: number | null;
  readonly code: string;
  readonly requestId: string | null;
  readonly retryable: boolean;
  readonly outcomeUnknown: boolean;
  readonly details: unknown;
  declare readonly text?: Message;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId ?? null;
    this.retryable = init.retryable;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.details = init.details;
    // only when there is one: an error without it compares equal to one made before it existed
    if (init.text) (this as { text?: Message }).text = init.text;
  }

  /** An error of the client's own making: `message` in English, `text` for the UI. */
  static said(init: Omit<ApiErrorInit, 'message' | 'text'> & { text: Message }): ApiError {
    return new ApiError({ ...init, message: englishText(init.text) });
  }

  /** True for answers that mean "this token cannot be used now": the account's queue pauses. */
  get isAuthProblem(): boolean {
    return this.status === 401 || this.status === 403;
  }

  /** `message (request id …)`, the line a person can paste into a support request. */
  describe(): string {
    return this.requestId ? `${this.message} (request id ${this.requestId})` : this.message;
  }
}

/** Cuts every occurrence of `secret` out of `text`: a hostile server could echo the token back. */
export function redact(text: string, secret: string): string {
  return secret && text.includes(secret) ? text.split(secret).join('[redacted]') : text;
}
