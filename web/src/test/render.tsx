import { QueryClientProvider } from '../lib/query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { Toaster } from 'sonner';
import { vi } from 'vitest';
import { createQueryClient } from '../lib/query-client';
import { STORAGE_KEYS } from '@app/shared/constants';
import { routeOf, type RouteCall } from './routes';

/** Shows the current path, so tests can assert navigation. */
function LocationProbe() {
  const { pathname } = useLocation();
  return (
    <div hidden data-testid="location">
      {pathname}
    </div>
  );
}

/** Renders a page at `path` (matched by `pattern`) with the app's providers and a toaster. */
export function renderPage(page: ReactElement, { path = '/', pattern = path }: { path?: string; pattern?: string } = {}) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={pattern} element={page} />
          <Route path="*" element={null} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}

/** A call made to the faked fetch; `route`, `params` and `query` name it by the route table. */
export interface MockCall extends RouteCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  /** The user the device was signed in as when the call went out (whose session cookie a browser sends); null for none. */
  signedInAs: string | null;
  credentials: RequestCredentials | undefined;
}

/** Replaces fetch with a handler; returns the calls made. */
export function mockFetch(handler: (call: MockCall) => Response | Promise<Response>) {
  const calls: MockCall[] = [];
  const fn = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    const method = init.method ?? 'GET';
    const call: MockCall = {
      ...routeOf(method, String(input)),
      url: String(input),
      method,
      headers,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      signedInAs: window.localStorage.getItem(STORAGE_KEYS.sessionUser),
      credentials: init.credentials,
    };
    calls.push(call);
    return handler(call);
  };
  vi.stubGlobal('fetch', fn);
  return calls;
}

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
