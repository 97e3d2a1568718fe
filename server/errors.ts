// Errors a client can cause, with the status, code and message of docs/api.md.

/** `params` carries the values inside `message`, so a client can show it in its own language. */
export interface ErrorItem { code: string; message: string; field?: string; params?: Record<string, string | number> }

export class ApiError extends Error {
  readonly statusCode: number;
  readonly items: ErrorItem[];
  /** Sent as `Retry-After` (429, 503). */
  retryAfterSeconds?: number;
  constructor(statusCode: number, code: string, message: string, field?: string, params?: ErrorItem['params']) {
    super(message);
    this.statusCode = statusCode;
    this.items = [{ code, message, ...(field ? { field } : {}), ...(params ? { params } : {}) }];
  }
  /** Several problems at once (validation): the first decides the message a client shows. */
  static of(statusCode: number, items: ErrorItem[]): ApiError {
    const error = new ApiError(statusCode, items[0].code, items[0].message);
    error.items.splice(0, 1, ...items);
    return error;
  }
  get body() {
    return { errors: this.items };
  }
}

export const notFound = (message = 'Not found') => new ApiError(404, 'NOT_FOUND', message);
export const forbidden = (permission?: string) => permission
  ? new ApiError(403, 'FORBIDDEN', `You do not have permission to do this (it needs ${permission}).`, undefined, { permission })
  : new ApiError(403, 'FORBIDDEN', 'You do not have permission to do this.');
export const badRequest = (code: string, message: string, field?: string) => new ApiError(400, code, message, field);

export const JWT_INVALID = 'JWT100';
export const JWT_EXPIRED = 'JWT101';
export const JWT_REVOKED = 'JWT102';
export const invalidToken = () => new ApiError(401, JWT_INVALID, 'Invalid token');
export const expiredToken = () => new ApiError(401, JWT_EXPIRED, 'Token expired');
export const revokedSession = () => new ApiError(401, JWT_REVOKED, 'Session revoked');

export const GENERIC_ERROR = 'Something went wrong. Try again.';

/** What one answer may hold (characters of its JSON), unless configured lower. */
export const MAX_ANSWER_CHARS = 16 * 1024 * 1024;
export const ANSWER_TOO_LARGE = 'This answer is too large: ask for it in parts (a page, a shorter period, a smaller area).';
/** An answer past `limit` characters; a list names its page size, the field to lower. */
export const answerTooLarge = (limit: number, field?: string) => new ApiError(400, 'ANSWER_TOO_LARGE', ANSWER_TOO_LARGE, field, { limit });
