// The error every failed API call throws: refine's HttpError shape (message + statusCode) plus
// the API's error code (`JWT101`, `VALIDATION`, …) and its values (`params`) when there are.
import type { HttpError } from '@refinedev/core';
import { i18n } from '../i18n/i18n.ts';

export const GENERIC_COMMUNICATION_ERROR = 'Something went wrong while communicating with the server';

export interface ApiErrorEntry {
  code?: string;
  message?: string;
  field?: string;
  params?: Record<string, string | number>;
}

/**
 * The entry's message in the interface language when the dictionaries know its code (`{{field}}`:
 * the field it is about, unless its params name one). A refusal
 * naming the grant it needs (`params.scope`: view, edit, owner) has its own text where there is
 * one (`FORBIDDEN_owner`: i18next's context), else the code's.
 */
function localized(entry: ApiErrorEntry | undefined, fallback: string): string {
  const key = `apiErrors.${entry?.code}`;
  // a field's message names it as the server's does: by the last segment of its path
  const field = entry?.field?.slice(entry.field.lastIndexOf('.') + 1);
  const params: Record<string, string | number> = { ...(field ? { field } : {}), ...entry?.params };
  return entry?.code && i18n.isInitialized && i18n.exists(key) ? i18n.t(key, { ...params, context: params.scope === undefined ? undefined : String(params.scope) }) : fallback;
}

/** The generic network/communication failure text, translated when possible. */
export const communicationErrorText = () =>
  i18n.isInitialized ? i18n.t('errors.communication') : GENERIC_COMMUNICATION_ERROR;

export class ApiHttpError extends Error implements HttpError {
  statusCode: number;
  code: string | undefined;
  errors: Record<string, string>;
  /** The values of the first error's message (`reason`, `limit`, …), as the server sent them. */
  params: Record<string, string | number>;

  constructor(message: string, statusCode: number, code?: string, errors: Record<string, string> = {}, params: Record<string, string | number> = {}) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.code = code;
    this.errors = errors;
    this.params = params;
  }
}

function errorEntries(body: unknown): ApiErrorEntry[] {
  if (!body || typeof body !== 'object') return [];
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors)) return [];
  // GraphQL errors carry code, field and params in `extensions`
  return errors
    .filter((entry): entry is ApiErrorEntry & { extensions?: ApiErrorEntry } => !!entry && typeof entry === 'object')
    .map(({ extensions, ...entry }) => ({ ...entry, ...extensions }));
}

/**
 * SPEC §8: 401 and 400 with invalid_grant → first message in `errors`; 500 → the `error`
 * field; otherwise the first error message, else the generic text.
 */
export function errorFromResponse(statusCode: number, body: unknown): ApiHttpError {
  const entries = errorEntries(body);
  const first = entries[0];
  const firstWithMessage = entries.find((entry) => typeof entry.message === 'string' && entry.message);
  let message: string | undefined;
  if (statusCode === 500) {
    const errorField = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
    const text = typeof errorField === 'string' && errorField ? errorField : firstWithMessage?.message;
    message = text && localized(first, text);
  } else {
    const uses401Rule = statusCode === 401 || (statusCode === 400 && entries.some((entry) => entry.code === 'invalid_grant'));
    const chosen = uses401Rule && first?.message ? first : firstWithMessage;
    message = chosen?.message && localized(chosen, chosen.message);
  }
  const fieldErrors: Record<string, string> = {};
  for (const entry of entries) {
    if (entry.field && entry.message) fieldErrors[entry.field] = localized(entry, entry.message);
  }
  return new ApiHttpError(message ?? communicationErrorText(), statusCode, first?.code, fieldErrors, first?.params);
}
