import { AsyncLocalStorage } from 'node:async_hooks';
import { dehydrate, type QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { jsonForScript, type BrandConfig } from '@app/shared';
import { AppProviders, createQueryClient } from './app/App';
import { stateScript } from './app/prerendered';
import { routes, type RouteHandle } from './app/router';
import { Layout } from './components/Layout';
import { Loading } from './components/Status';
import { collectIslands } from './islands/Island';
import { ISLAND_STRINGS, ISLAND_STRINGS_ID, pickStrings } from './islands/pageStrings';
import { ISLAND_MODULES, type IslandName } from './islands/registry';
import { setApiTransport } from './lib/api';
import { setBrand } from './lib/brand';
import { takeNotFound, takeTitle } from './lib/pageStatus';
import './lib/i18n';
import en from './locales/en.json';

/**
 * The server's renderer of public pages (built by `vite build --ssr`, loaded by the server's web module). It renders
 * the same components as the browser, in English and for a signed-out visitor, from the same API answers.
 */
export interface RenderedPage {
  /** The markup that goes inside <div id="root">. */
  html: string;
  /** The data it was rendered from, as a <script> the browser app starts from. */
  stateScript: string;
  /** The screens' source files (keys of the build manifest), whose chunks and styles the page links. */
  modules: string[];
  /** The page's title (its heading's words) for the browser's tab, when the page names one. */
  title?: string;
  /** 404 for an address the app has no screen for; the server also answers 404 when the page's record is missing. */
  status: number;
  /**
   * The modules (keys of the build manifest) of the page's islands: for a signed-out reader in English they are the
   * page's only code (islands/start.tsx). Empty for a screen's frame, which only the app can draw.
   */
  islands: string[];
}

export type ApiTransport = (url: string, init: RequestInit) => Promise<Response>;

const handler = createStaticHandler(routes);

/**
 * The frame of a screen the server does not render (an editor's screens, the account forms): header, "Loading..." and
 * footer. It paints at once, with the screen's code already on its way (the page links its chunks), instead of a
 * blank page until the app has run; the app then draws the screen over it (no adoption: there is no state to adopt).
 */
const frameHandler = createStaticHandler([{ element: <Layout />, children: [{ path: '*', Component: () => <Loading /> }] }]);

/**
 * The queries a render asked for that nobody has fetched yet. A query the page turned off (`enabled: false`, e.g. the
 * campaign directory until the form is near) stays off: the cache keeps the options of the hook that built it.
 */
function unfetchedQueries(queryClient: QueryClient) {
  return queryClient
    .getQueryCache()
    .getAll()
    .filter((query) => query.state.status === 'pending' && query.state.fetchStatus === 'idle' && (query.options as { enabled?: unknown }).enabled !== false);
}

async function renderFrame(url: string, brand: BrandConfig, modules: string[]): Promise<RenderedPage | null> {
  const context = await frameHandler.query(new Request(new URL(url, 'http://localhost')));
  if (context instanceof Response) return null;
  const router = createStaticRouter(frameHandler.dataRoutes, context);
  setBrand(brand);
  const html = renderToString(
    <AppProviders queryClient={createQueryClient()}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
  );
  // No state script: the browser app draws the screen afresh rather than adopting this markup.
  return { html, stateScript: '', modules, status: 200, islands: [] };
}

/**
 * The English strings of the page's islands (islands/pageStrings.ts), which they read on a reading page without the
 * app, in the page rather than in every page's scripts.
 */
function islandStringsScript(islands: Set<IslandName>): string {
  if (islands.size === 0) return '';
  const strings = pickStrings(en, [...islands].flatMap((name) => ISLAND_STRINGS[name]));
  return `<script type="application/json" id="${ISLAND_STRINGS_ID}">${jsonForScript(strings)}</script>`;
}

/** Rounds of render-then-fetch: a screen whose second query depends on its first needs two. */
const MAX_DATA_ROUNDS = 3;

/**
 * One process may serve several apps (the server's tests build one per test), so each render carries its own API
 * and brand: the API through the render's async context, the brand set before each (synchronous) render pass.
 */
const renderApi = new AsyncLocalStorage<ApiTransport>();
setApiTransport((url, init) => {
  const api = renderApi.getStore();
  if (!api) throw new Error(`server render: no API for ${url}`);
  return api(url, init);
});

/**
 * Renders a public page, or the frame of another screen (editors' screens, sign-in...); null when the address
 * redirects.
 */
export function render(url: string, options: { brand: BrandConfig; api: ApiTransport }): Promise<RenderedPage | null> {
  return renderApi.run(options.api, () => renderPage(url, options.brand));
}

async function renderPage(url: string, brand: BrandConfig): Promise<RenderedPage | null> {
  const context = await handler.query(new Request(new URL(url, 'http://localhost')));
  if (context instanceof Response) return null;
  const handles = context.matches.map((match) => match.route.handle as RouteHandle | undefined).filter((h): h is RouteHandle => Boolean(h));
  const leaf = handles.at(-1);
  if (!leaf || context.statusCode !== 200) return null;
  if (!leaf.prerender) return renderFrame(url, brand, handles.map((h) => h.module));

  const queryClient = createQueryClient();
  // A refused read (a 400 for a bad address) is drawn as refused: retryOnMount would draw a failed query as loading
  // again, and a reading page has no app to load it afterwards.
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false, retryOnMount: false } });
  const router = createStaticRouter(handler.dataRoutes, context);
  let islands = new Set<IslandName>();
  const page = () => {
    setBrand(brand);
    takeNotFound();
    takeTitle();
    islands = new Set();
    collectIslands(islands);
    try {
      return renderToString(
        <AppProviders queryClient={queryClient}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </AppProviders>,
      );
    } finally {
      collectIslands(null);
    }
  };

  let html = page();
  for (let round = 0; round < MAX_DATA_ROUNDS; round++) {
    const waiting = unfetchedQueries(queryClient);
    if (waiting.length === 0) break;
    await Promise.all(waiting.map((query) => query.fetch().catch(() => undefined)));
    html = page();
  }
  const status = takeNotFound() ? 404 : (leaf.status ?? 200);
  const title = takeTitle() ?? undefined;
  const modules = handles.map((h) => h.module);
  return {
    html,
    title,
    stateScript: stateScript(dehydrate(queryClient)) + islandStringsScript(islands),
    modules,
    status,
    islands: [...islands].map((name) => ISLAND_MODULES[name]),
  };
}
