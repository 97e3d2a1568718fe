// The HTTP client against a stubbed fetch: token refresh once for many requests, session expiry
// with a single redirect, and the error messages of SPEC §8 (in English, as the web app shows them).
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUpI18n } from '../../../src/i18n/i18n.ts';
import { httpRequest } from '../../../src/providers/httpClient.ts';
import { GENERIC_COMMUNICATION_ERROR, errorFromResponse } from '../../../src/providers/httpError.ts';
import { registerAppNavigation } from '../../../src/session/appNavigation.ts';
import { sessionStarted } from '../../../src/session/sessionReset.ts';
import { getAccessToken, getRefreshToken, storeTokens } from '../../../src/session/tokenStorage.ts';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const expired = () => json(401, { errors: [{ code: 'JWT101', message: 'Token expired' }] });
const revoked = () => json(401, { errors: [{ code: 'JWT102', message: 'Session revoked' }] });

function bearerOf(init: RequestInit | undefined): string | undefined {
  return (init?.headers as Record<string, string> | undefined)?.authorization;
}

let navigations: string[];

beforeAll(async () => {
  await setUpI18n('city').changeLanguage('en');
});

beforeEach(() => {
  navigations = [];
  registerAppNavigation((path) => navigations.push(path));
  sessionStarted();
  storeTokens('old-access', 'old-refresh');
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('token refresh', () => {
  it('refreshes once for concurrent requests and retries them with the new token', async () => {
    let refreshCalls = 0;
    const fetchStub = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/auth/refresh') {
        refreshCalls += 1;
        expect(JSON.parse(String(init?.body))).toEqual({ refresh_token: 'old-refresh' });
        await new Promise((resolve) => setTimeout(resolve, 20));
        return json(200, { access_token: 'new-access', refresh_token: 'new-refresh' });
      }
      return bearerOf(init) === 'Bearer new-access' ? json(200, { path: url }) : expired();
    });
    vi.stubGlobal('fetch', fetchStub);

    const answers = await Promise.all([
      httpRequest<{ path: string }>({ path: '/tenant' }),
      httpRequest<{ path: string }>({ path: '/user-me' }),
      httpRequest<{ path: string }>({ path: '/watcher-list' }),
    ]);

    expect(answers.map((answer) => answer.path)).toEqual(['/tenant', '/user-me', '/watcher-list']);
    expect(refreshCalls).toBe(1);
    expect(getAccessToken()).toBe('new-access');
    expect(getRefreshToken()).toBe('new-refresh');
    expect(navigations).toEqual([]);
  });

  it('refreshes once and retries on an invalid_token answer (a gateway\'s body or header), as for an expired token', async () => {
    let refreshCalls = 0;
    const invalid = [
      () => json(401, { error: 'invalid_token', error_description: 'The access token expired' }),
      () => new Response('', { status: 401, headers: { 'www-authenticate': 'Bearer realm="api", error="invalid_token"' } }),
    ];
    for (const answer of invalid) {
      storeTokens('old-access', 'old-refresh');
      vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
        if (url === '/auth/refresh') {
          refreshCalls += 1;
          return json(200, { access_token: 'new-access', refresh_token: 'new-refresh' });
        }
        return bearerOf(init) === 'Bearer new-access' ? json(200, { path: url }) : answer();
      }));
      expect(await httpRequest<{ path: string }>({ path: '/tenant' })).toEqual({ path: '/tenant' });
    }
    expect(refreshCalls).toBe(2);
    expect(navigations).toEqual([]);
  });

  it('ends the session and goes to /login once when the refresh fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => (url === '/auth/refresh' ? revoked() : expired())),
    );

    const results = await Promise.allSettled([httpRequest({ path: '/tenant' }), httpRequest({ path: '/user-me' })]);

    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    expect(navigations).toEqual(['/login?redirect=%2F']);
    expect(getAccessToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
  });

  it('does not refresh twice when the retried request is refused again', async () => {
    let refreshCalls = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/auth/refresh') {
          refreshCalls += 1;
          return json(200, { access_token: 'new-access', refresh_token: 'new-refresh' });
        }
        return expired();
      }),
    );

    await expect(httpRequest({ path: '/tenant' })).rejects.toMatchObject({ statusCode: 401 });
    expect(refreshCalls).toBe(1);
    expect(navigations).toEqual(['/login?redirect=%2F']);
  });
});

describe('invalid or revoked sessions', () => {
  it.each([
    ['JWT100', 'Invalid token'],
    ['JWT102', 'Your session has ended. Please sign in again.'],
  ])('%s resets the session and redirects once', async (code, message) => {
    vi.stubGlobal('fetch', vi.fn(async () => json(401, { errors: [{ code, message: 'Invalid token' }] })));

    const results = await Promise.allSettled([httpRequest({ path: '/tenant' }), httpRequest({ path: '/user-me' })]);

    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toMatchObject({ statusCode: 401, message, code });
    expect(navigations).toEqual(['/login?redirect=%2F']);
    expect(getAccessToken()).toBeNull();
  });
});

describe('requests', () => {
  it('sends the bearer token, JSON body and query', async () => {
    const fetchStub = vi.fn(async () => json(200, { status: 'success' }));
    vi.stubGlobal('fetch', fetchStub);

    await httpRequest({ method: 'post', path: '/update-password', query: { a: 1, empty: '' }, body: { input: { x: 1 } } });

    const [url, init] = fetchStub.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/update-password?a=1');
    expect(init.method).toBe('POST');
    expect(bearerOf(init)).toBe('Bearer old-access');
    expect(init.body).toBe(JSON.stringify({ input: { x: 1 } }));
    expect(init.signal).toBeInstanceOf(AbortSignal);
  });

  it('turns a network failure into the generic message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(httpRequest({ path: '/tenant' })).rejects.toMatchObject({ message: GENERIC_COMMUNICATION_ERROR });
  });

  it('gives up after 15 seconds', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init?: RequestInit) =>
          new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')))),
      ),
    );
    const pending = httpRequest({ path: '/tenant' });
    const outcome = expect(pending).rejects.toMatchObject({ message: GENERIC_COMMUNICATION_ERROR });
    await vi.advanceTimersByTimeAsync(15_000);
    await outcome;
    vi.useRealTimers();
  });
});

describe('error messages (SPEC §8)', () => {
  it('401 and 400 invalid_grant use the first message in errors', () => {
    expect(errorFromResponse(401, { errors: [{ code: 'JWT100', message: 'Invalid token' }] }).message).toBe('Invalid token');
    expect(errorFromResponse(400, { errors: [{ code: 'invalid_grant', message: 'Invalid email or password' }] }).message).toBe(
      'Invalid email or password',
    );
  });

  it('500 uses the error field', () => {
    expect(errorFromResponse(500, { error: 'Something went wrong. Try again.' }).message).toBe('Something went wrong. Try again.');
  });

  it('other errors use the first error message, else the generic text', () => {
    expect(errorFromResponse(400, { errors: [{ code: 'INVALID_PASSWORD', message: 'Invalid user password' }] }).message).toBe(
      'Invalid user password',
    );
    expect(errorFromResponse(429, { errors: [{ code: 'RATE_LIMITED', message: 'Too many failed sign-in attempts. Try again in 5 minutes.', params: { minutes: 5 } }] }).message).toBe(
      'Too many failed sign-in attempts. Try again in 5 minutes.',
    );
    expect(errorFromResponse(502, 'Bad gateway').message).toBe(GENERIC_COMMUNICATION_ERROR);
    expect(errorFromResponse(404, {}).statusCode).toBe(404);
  });

  it('keeps a message per field: in the interface language where the dictionaries know its code, else as sent', () => {
    const error = errorFromResponse(400, { errors: [
      { code: 'PASSWORD_TOO_SHORT', message: 'The password must have at least 8 characters', field: 'input.password', params: { limit: 8 } },
      { code: 'SOMETHING_NEW', message: 'too short', field: 'input.name' },
    ] });
    expect(error.errors).toEqual({ 'input.password': 'The password must have at least 8 characters', 'input.name': 'too short' });
    expect(error.code).toBe('PASSWORD_TOO_SHORT');
  });
});

describe('files', () => {
  it('sends a Blob as it is, with its own type, and answers an image as a Blob', async () => {
    const sent: RequestInit[] = [];
    vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
      sent.push(init!);
      return url.endsWith('?v=1') ? new Response(new Uint8Array([1, 2, 3]), { status: 200, headers: { 'content-type': 'image/png' } }) : json(200, { url: '/x?v=1' });
    }));
    const file = new Blob([new Uint8Array([0x89, 0x50])], { type: 'image/png' });
    expect(await httpRequest({ method: 'put', path: '/entity/1/overlay-image', body: file })).toEqual({ url: '/x?v=1' });
    expect(sent[0].body).toBe(file);
    expect((sent[0].headers as Record<string, string>)['content-type']).toBe('image/png');
    expect(bearerOf(sent[0])).toBe('Bearer old-access');

    const image = await httpRequest<Blob>({ path: '/entity/1/overlay-image?v=1', blob: true });
    expect(image.type).toBe('image/png');
    expect([...new Uint8Array(await image.arrayBuffer())]).toEqual([1, 2, 3]);
  });
});
