// The only place that talks HTTP to the server. Adds the bearer token, times out after 15 s,
// refreshes an expired token once (other requests wait for the same refresh) and ends the
// session on an invalid or revoked one (SPEC §8).
import { expireSession } from '../session/sessionReset.ts';
import { getAccessToken, getRefreshToken, storeTokens } from '../session/tokenStorage.ts';
import { ApiHttpError, communicationErrorText, errorFromResponse } from './httpError.ts';

export const HTTP_TIMEOUT_MS = 15_000;

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';

export interface HttpRequest {
  method?: HttpMethod;
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Send without the bearer token and without refresh handling (the /auth calls). */
  anonymous?: boolean;
  /** Answer the body as a Blob (an image) instead of parsed JSON. */
  blob?: boolean;
}

interface TokenPair {
  access_token?: string;
  refresh_token?: string;
}

function urlOf(path: string, query: HttpRequest['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

async function parseBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

interface RawResponse {
  status: number;
  ok: boolean;
  body: unknown;
  headers: Headers;
}

async function send(request: HttpRequest, accessToken: string | null): Promise<RawResponse> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), HTTP_TIMEOUT_MS);
  const headers: Record<string, string> = { accept: request.blob ? '*/*' : 'application/json', ...request.headers };
  // a Blob (a file) travels as it is, with its own type; anything else as JSON
  const raw = request.body instanceof Blob;
  if (request.body !== undefined) headers['content-type'] = raw ? (request.body as Blob).type || 'application/octet-stream' : 'application/json';
  if (accessToken && !request.anonymous) headers.authorization = `Bearer ${accessToken}`;
  try {
    const response = await fetch(urlOf(request.path, request.query), {
      method: (request.method ?? 'get').toUpperCase(),
      headers,
      body: request.body === undefined ? undefined : raw ? request.body as Blob : JSON.stringify(request.body),
      signal: controller.signal,
    });
    const body = request.blob && response.ok ? await response.blob() : await parseBody(response);
    return { status: response.status, ok: response.ok, body, headers: response.headers };
  } catch {
    throw new ApiHttpError(communicationErrorText(), 0);
  } finally {
    clearTimeout(timer);
  }
}

/** OAuth's word for a token that is not good (RFC 6750): a gateway or proxy before the server may answer it. */
const INVALID_TOKEN = 'invalid_token';

/**
 * The auth code of a 401: ours (`errors[0].code`), or JWT101 for an `invalid_token` answer (SPEC §8:
 * refreshed once like an expired token), by its body's `error` or its WWW-Authenticate header.
 */
function authErrorCode(response: RawResponse): string | undefined {
  if (response.status !== 401) return undefined;
  const body = response.body as { errors?: { code?: string }[]; error?: unknown } | undefined;
  if (body?.error === INVALID_TOKEN || response.headers.get('www-authenticate')?.includes(`error="${INVALID_TOKEN}"`)) return 'JWT101';
  return Array.isArray(body?.errors) ? body.errors[0]?.code : undefined;
}

let pendingRefresh: Promise<string> | null = null;

async function refreshTokens(): Promise<string> {
  const refreshToken = getRefreshToken();
  if (!refreshToken) throw new ApiHttpError('Session expired', 401, 'JWT102');
  const response = await send({ method: 'post', path: '/auth/refresh', body: { refresh_token: refreshToken }, anonymous: true }, null);
  const tokens = response.body as TokenPair | undefined;
  if (!response.ok || !tokens?.access_token) throw errorFromResponse(response.status, response.body);
  storeTokens(tokens.access_token, tokens.refresh_token);
  return tokens.access_token;
}

/** One refresh at a time: every request that meets an expired token waits on the same one. */
function refreshAccessToken(): Promise<string> {
  pendingRefresh ??= refreshTokens().finally(() => {
    pendingRefresh = null;
  });
  return pendingRefresh;
}

/** Sends a request and returns the parsed JSON answer, or throws an ApiHttpError. */
export async function httpRequest<T>(request: HttpRequest): Promise<T> {
  return (await httpExchange<T>(request)).body;
}

/** Like httpRequest, with the answer's headers too (e.g. a list's X-Total-Count). */
export async function httpExchange<T>(request: HttpRequest): Promise<{ body: T; headers: Headers }> {
  const usedToken = getAccessToken();
  let response = await send(request, usedToken);
  if (!request.anonymous) {
    let code = authErrorCode(response);
    if (code === 'JWT101') {
      let freshToken: string;
      try {
        // Another request may already have refreshed the token this one was sent with.
        const current = getAccessToken();
        freshToken = current && current !== usedToken ? current : await refreshAccessToken();
      } catch (refreshError) {
        expireSession();
        throw refreshError instanceof ApiHttpError ? refreshError : new ApiHttpError(communicationErrorText(), 401);
      }
      response = await send(request, freshToken);
      code = authErrorCode(response);
      if (code) {
        expireSession();
        throw errorFromResponse(response.status, response.body);
      }
    } else if (code === 'JWT100' || code === 'JWT102') {
      expireSession();
    }
  }
  if (!response.ok) throw errorFromResponse(response.status, response.body);
  return { body: response.body as T, headers: response.headers };
}

interface GraphqlAnswer<T> {
  data?: T;
  errors?: { message?: string; extensions?: { code?: string } }[];
}

/** A GraphQL query or mutation over HTTP on /graphql. */
export async function graphqlRequest<T>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const answer = await httpRequest<GraphqlAnswer<T>>({ method: 'post', path: '/graphql', body: { query, variables } });
  const firstError = answer?.errors?.[0];
  if (firstError || !answer?.data) throw errorFromResponse(200, answer);
  return answer.data;
}
