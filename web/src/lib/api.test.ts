import { DEV_BYPASS_HEADER, SESSION_USER_HEADER, STORAGE_KEYS } from '@app/shared/constants';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RouteName } from '@app/shared/routes';
import { json, mockFetch } from '../test/render';
import { api, ApiError, describeError, request, routeDef } from './api';
import { onSessionEnd } from './auth-token';
import { i18n } from './i18n';

const user = {
  id: 'u1',
  name: 'Ana',
  email: 'ana@example.com',
  language: 'en',
  theme: 'light',
  transcriptionLang: 'pt-BR',
  plan: 'free',
  planExpiry: null,
  createdAt: '2025-01-01T00:00:00.000Z',
};

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('api client', () => {
  afterEach(() => window.localStorage.clear());

  it('sends the route method and path, a JSON body, and no Authorization header', async () => {
    const calls = mockFetch(() => json(200, { user }));
    const out = await api('login', { body: { email: 'ana@example.com', password: 'secret1' } });
    expect('user' in out && out.user.name).toBe('Ana');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      route: 'login',
      body: { email: 'ana@example.com', password: 'secret1' },
    });
    expect(calls[0]?.headers['content-type']).toBe('application/json');
    expect(calls[0]?.headers.authorization).toBeUndefined();
  });

  it('leaves the session to the cookie the browser sends (same origin): no token in any header', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'u1');
    const fetchFn = vi.fn(async () => json(200, user));
    vi.stubGlobal('fetch', fetchFn);
    await api('updateMe', { body: { language: 'pt' } });
    const [, sent] = fetchFn.mock.calls[0] as unknown as [string, RequestInit];
    expect(sent.credentials).toBe('same-origin');
    expect(sent.headers).not.toHaveProperty('authorization');
  });

  it('maps an error answer to ApiError with status, message, code and secondsLeft', async () => {
    mockFetch(() =>
      json(429, { error: 'You can only request a password reset once per hour.', code: 'reset_rate_limited', secondsLeft: 125 }),
    );
    const error = await failure(api('forgotPassword', { body: { email: 'a@b.co', recaptchaToken: 'test-pass' } }));
    expect(error).toMatchObject({
      status: 429,
      message: 'You can only request a password reset once per hour.',
      code: 'reset_rate_limited',
      secondsLeft: 125,
      requiresPro: false,
    });
  });

  it('reads requiresPro', async () => {
    mockFetch(() => json(403, { error: 'Only Pro users can do this.', code: 'requires_pro', requiresPro: true }));
    const error = await failure(api('planStatus'));
    expect(error.status).toBe(403);
    expect(error.requiresPro).toBe(true);
  });

  it('falls back to "Request error" when the answer has no JSON error', async () => {
    mockFetch(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    const error = await failure(api('planStatus'));
    expect(error).toMatchObject({ status: 502, message: 'Request error', code: undefined, serverMessage: undefined });
    expect(describeError(error)).toBeUndefined();
  });

  it('turns a network failure into code "network" with the translated message', async () => {
    mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const error = await failure(api('planStatus'));
    expect(error).toMatchObject({ status: 0, code: 'network', message: 'Connection error' });

    await i18n.changeLanguage('pt');
    const again = await failure(api('planStatus'));
    expect(again.message).toBe('Erro de conexão');
    expect(describeError(again)).toBe('Erro de conexão');
  });

  it('describes errors by code in the UI language, else with the server text', async () => {
    mockFetch(() => json(401, { error: 'Invalid email or password.', code: 'invalid_credentials' }));
    const known = await failure(api('login', { body: { email: 'a@b.co', password: 'x' } }));
    await i18n.changeLanguage('es');
    expect(describeError(known)).toBe('Correo electrónico o contraseña no válidos.');

    mockFetch(() => json(400, { error: 'Something specific', code: 'brand_new_code' }));
    const unknown = await failure(api('login', { body: { email: 'a@b.co', password: 'x' } }));
    expect(describeError(unknown)).toBe('Something specific');
    expect(describeError(new Error('not an api error'))).toBeUndefined();
  });

  it('ends the session when a signed-in route refuses the token, not on a failed login', async () => {
    const ended = vi.fn();
    const stop = onSessionEnd(ended);
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'stale');

    mockFetch(() => json(401, { error: 'Invalid email or password.', code: 'invalid_credentials' }));
    await failure(api('login', { body: { email: 'a@b.co', password: 'x' } }));
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBe('stale');
    expect(ended).not.toHaveBeenCalled();

    mockFetch(() => json(401, { error: 'Your session has expired. Sign in again.', code: 'session_expired' }));
    await failure(api('getMe'));
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBeNull();
    expect(ended).toHaveBeenCalledTimes(1);
    stop();
  });

  it('a refusal of a session no longer the device\'s (another user signed in meanwhile) does not end the current one', async () => {
    const ended = vi.fn();
    const stop = onSessionEnd(ended);
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'first');
    mockFetch(() => {
      window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'second');
      return json(401, { error: 'Your session has expired. Sign in again.', code: 'session_expired' });
    });
    await failure(api('getMe'));
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionUser)).toBe('second');
    expect(ended).not.toHaveBeenCalled();
    stop();
  });

  it('sends the dev bypass token on every call while this device holds one', async () => {
    const calls = mockFetch(() => json(200, { ok: true }));
    await api('contact', { body: { name: 'A', email: 'a@b.co', subject: 's', message: 'm' } });
    expect(calls[0]?.headers[DEV_BYPASS_HEADER]).toBeUndefined();
    window.localStorage.setItem(STORAGE_KEYS.devBypass, 'bypass.jwt');
    await api('contact', { body: { name: 'A', email: 'a@b.co', subject: 's', message: 'm' } });
    await api('planStatus');
    expect(calls[1]?.headers[DEV_BYPASS_HEADER]).toBe('bypass.jwt');
    expect(calls[2]?.headers[DEV_BYPASS_HEADER]).toBe('bypass.jwt');
  });

  it('surfaces a maintenance refusal as status 503 with code "maintenance", translated', async () => {
    await i18n.changeLanguage('en');
    mockFetch(() => json(503, { error: 'The site is under maintenance.', code: 'maintenance' }));
    const error = await failure(api('updateMe', { body: { name: 'X' } }));
    expect(error).toMatchObject({ status: 503, code: 'maintenance', serverMessage: 'The site is under maintenance.' });
    expect(describeError(error)).toBe(i18n.t('errors.codes.maintenance'));
    expect(describeError(error)).toMatch(/maintenance/i);
  });

  it('fills {id} from params for a route of the table', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 't');
    const calls = mockFetch(() => json(200, { ok: true }));
    await api('deleteTranscription', { params: { id: '01HZX3J5Q8W2N4M6P7R9S0T1V2' } });
    expect(calls[0]).toMatchObject({ route: 'deleteTranscription', params: { id: '01HZX3J5Q8W2N4M6P7R9S0T1V2' } });
  });

  it('request: the same core without throwing; keepalive and cache pass through, a given user is sent only in their session, null is an anonymous call', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'own');
    window.localStorage.setItem(STORAGE_KEYS.devBypass, 'bypass.jwt');
    const fetchFn = vi.fn(async () => json(409, { error: 'gap', code: 'autosave_gap', length: 3 }));
    vi.stubGlobal('fetch', fetchFn);
    const delta = { sessionId: '01JAAAAAAAAAAAAAAAAAAAAAAA', offset: 5, text: 'x', segments: [], duration: 1, language: 'pt-BR' as const };
    expect(await request('autosaveSave', { body: delta, asUser: 'own', keepalive: true })).toEqual({ status: 409, data: { error: 'gap', code: 'autosave_gap', length: 3 } });
    const [, sent] = fetchFn.mock.calls[0] as unknown as [string, RequestInit];
    expect(sent).toMatchObject({ method: 'POST', keepalive: true, credentials: 'same-origin', headers: { [DEV_BYPASS_HEADER]: 'bypass.jwt', [SESSION_USER_HEADER]: 'own' } });
    // Signed in as someone else: nothing is sent.
    expect(await request('autosaveSave', { body: delta, asUser: 'another', keepalive: true })).toEqual({ status: 0, data: undefined });
    expect(fetchFn).toHaveBeenCalledTimes(1);

    await request('maintenanceMode', { asUser: null, cache: 'no-store' });
    const [, anonymous] = fetchFn.mock.calls[1] as unknown as [string, RequestInit];
    expect(anonymous.cache).toBe('no-store');
    expect(anonymous.credentials).toBe('omit');
    expect(anonymous.headers).toEqual({ accept: 'application/json' });

    await request('exchangeSession', { bearer: 'old.stored.token' });
    const [, exchange] = fetchFn.mock.calls[2] as unknown as [string, RequestInit];
    expect(exchange).toMatchObject({ credentials: 'same-origin', headers: { authorization: 'Bearer old.stored.token' } });

    fetchFn.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect(await request('planStatus')).toEqual({ status: 0, data: undefined });
  });

  it('is typed from the route table (checked by tsc -p web)', () => {
    const typeChecks = () => {
      // @ts-expect-error login needs a body
      void api('login');
      // @ts-expect-error unknown field in the body
      void api('login', { body: { email: 'a@b.co', pass: 'x' } });
      // @ts-expect-error a route with {id} needs params
      void api('deleteTranscription');
      // @ts-expect-error not a route
      void api('noSuchRoute');
      void api('getMe').then((me) => me.email satisfies string);
      void api('listTranscriptions', { query: { month: '2025-01' } });
    };
    expect(typeof typeChecks).toBe('function');
  });
});

describe('route map of the typed client', () => {
  it('has every route of the shared table with its method, path and auth level, and nothing else', async () => {
    const { routes } = await import('@app/shared/routes');
    const { default: routeMap } = await import('virtual:route-map');
    expect(Object.keys(routeMap).sort()).toEqual(Object.keys(routes).sort());
    for (const [name, r] of Object.entries(routes)) expect(routeDef(name as RouteName), name).toEqual({ method: r.method, path: r.path, auth: r.auth });
  });
});
