import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useNavigate } from 'react-router';
import { vi } from 'vitest';
import { setNavigator } from '../src/lib/navigate';
import { session } from '../src/lib/session';

/** Helpers of the screens' tests: a fake API (fetch), a signed-in session, and a render with the app's providers. */

export type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** Answers every fetch with `handler`; returns the mock, whose calls the tests read. */
export function mockFetch(handler: Handler) {
  const fetchMock = vi.fn((input: RequestInfo | URL, init: RequestInit = {}) => Promise.resolve(handler(new URL(String(input), 'http://localhost'), init)));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The calls of `method` to `path` (a full path such as /api/users/x/role). */
export const callsTo = (fetchMock: ReturnType<typeof mockFetch>, method: string, path: string) =>
  fetchMock.mock.calls.filter(([u, init]) => new URL(String(u), 'http://localhost').pathname === path && ((init as RequestInit)?.method ?? 'GET') === method);

const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

/** Signs in as a test account (a token the app can read; the fake API does not check it). */
export function signIn(id: string, role: 'pending' | 'contributor' | 'admin' | 'super') {
  session.signIn(`${b64({ alg: 'HS256' })}.${b64({ id, role, name: 'Test Account', exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`);
}

/** The islands' navigation through the test's router, as the app routes it (app/App.tsx); set before they render. */
function RouterNavigation() {
  const navigate = useNavigate();
  setNavigator((to) => void navigate(to));
  return null;
}

/** Renders `ui` at `url` (under `path` when the screen reads route parameters), with the query client and router. */
export function renderScreen(ui: ReactNode, { url = '/', path }: { url?: string; path?: string } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <RouterNavigation />
        {path ? (
          <Routes>
            <Route path={path} element={ui} />
            <Route path="*" element={<p data-testid="elsewhere">elsewhere</p>} />
          </Routes>
        ) : (
          ui
        )}
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
