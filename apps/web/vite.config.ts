import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';
import { ethiopicFaces } from './build/ethiopic-faces.ts';

/**
 * The code is written against React's API. The production build runs it on preact/compat, React's API in about
 * 4 KB instead of react-dom's ~57 KB (brotli), which keeps the home page under its 100 KB budget on slow, expensive
 * connections. Development and unit tests use React itself; the browser suite tests the production build.
 */
export const preactAliases = {
  'react-dom/test-utils': 'preact/test-utils',
  'react-dom/client': 'preact/compat/client',
  'react-dom/server': 'preact/compat/server',
  'react-dom': 'preact/compat',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-runtime',
  react: 'preact/compat',
};

/** A group's test: whether a module's path (with / on every platform) matches one of `patterns`. */
const pathMatches = (patterns: RegExp[]) => (id: string) => patterns.some((pattern) => pattern.test(id.replaceAll('\\', '/')));

/**
 * The browser build's shared chunks. Left to itself the bundler gives every module that several screens share a chunk
 * of its own: a list page asked for 13 scripts, most under 2.5 KB, each a request (six at a time over HTTP/1.1) and a
 * module to compile. Grouped, it asks for six. A module that matches no group keeps the default (its own chunk).
 * Only these modules move: their imports stay where they are (`includeDependenciesRecursively: false`), so nothing
 * leaves the entry chunk that every page loads.
 */
const SHARED_CHUNKS = {
  includeDependenciesRecursively: false,
  groups: [
    {
      // What every page runs besides the entry: the UI library, for the app and for the islands of a reading page
      // (src/islands). Only modules that import nothing outside the group: a chunk importing one that imports it back
      // runs before its imports are set. i18next and the language files are the app's alone (in its entry chunk): the
      // islands read the few strings they show from the page (islands/pageStrings.ts).
      name: 'framework',
      test: pathMatches([
        /node_modules\/preact\//,
        /src\/lib\/(translate|navigate)\.ts$/,
        /src\/islands\/Island\.tsx$/,
        /shared\/src\/constants\.ts$/,
        /shared\/src\/categories\/types\.ts$/,
        /preload-helper/,
      ]),
      priority: 20,
    },
    {
      // The islands that reading pages share (the menu, copy buttons, toggles: src/islands/registry.ts) and what they
      // import besides the framework, in one request for a reading page (the app uses them too).
      name: 'islands',
      test: pathMatches([
        /src\/lib\/(https|useWhenNear|nextTask)\.ts$/,
        /src\/components\/(Slots|Status|SiteMenu|LanguageSwitch|siteLists|CopyButton)\.tsx?$/,
        /src\/features\/(records\/ViewToggle|search\/FiltersToggle|gallery\/ViewerKeys|home\/CampaignSlot)\.tsx$/,
        /src\/features\/search\/filterFocus\.ts$/,
        /shared\/src\/(paths|categories\/routes)\.ts$/,
      ]),
      priority: 18,
    },
    {
      // A record's images: the carousel island and what draws an image, named after the island so the server links it
      // on the pages that have one (and only there: the home page and most lists have none).
      name: 'ImageCarousel',
      test: pathMatches([/src\/components\/(Carousel|ImageCarousel|ResponsiveImage)\.tsx$/]),
      priority: 17,
    },
    {
      // The graphic guard's "Show", an island of its own on a list whose card shows a graphic image (same naming).
      name: 'ShowGraphic',
      test: pathMatches([/src\/components\/ShowGraphic\.tsx$/]),
      priority: 17,
    },
    {
      // The statistics' and map's filters with the regions they list, named after the island for the same reason.
      name: 'FilterForm',
      test: pathMatches([/src\/features\/statistics\/FilterForm\.tsx$/, /shared\/src\/places\/regions\.ts$/]),
      priority: 17,
    },
    {
      // Reading the API and turning its refusals into form errors, which the record screens and the home page's
      // letter form share.
      name: 'query',
      test: pathMatches([
        /@tanstack\/(react-query|query-core)\/build\/modern\/(queryOptions|useQuery|useBaseQuery|queryObserver|IsRestoringProvider|QueryErrorResetBoundary|errorBoundaryUtils|suspense)\.js$/,
        /shared\/src\/api\.ts$/,
        /src\/lib\/api\.ts$/,
        /src\/lib\/formErrors\.ts$/,
      ]),
      priority: 15,
    },
    {
      // Dates as the site writes them, which the record screens and the statistics' map share. Apart from the records'
      // chunk: its styles (the cards', the images') come with it, and the statistics and map pages, which use none of
      // them, linked both style sheets for one date format (two render-blocking requests, 3.5-8 ms of main-thread CPU at 412x823 here).
      name: 'dates',
      test: pathMatches([/node_modules\/dayjs\//, /src\/lib\/dates\.ts$/]),
      priority: 11,
    },
    {
      // What the record screens (lists, details, gallery, forms) share: pagination, images, cards' parts.
      name: 'records',
      test: pathMatches([
        /src\/components\/(Pagination|RouteNotice|icons)\.tsx$/,
        /src\/features\/records\/(api\.ts|useCategoryFromPath\.ts|categoryViews\.ts|ConfirmedStatus\.tsx|EventDetails\.tsx|MassacreTable\.tsx|FieldValue\.tsx|RecordCard\.tsx|PrivateMark\.tsx|public\.css)$/,
        /shared\/src\/text\.ts$/,
      ]),
      priority: 10,
    },
  ],
};

/**
 * Two builds: the browser's (dist/, with a manifest naming each screen's chunks and styles) and the server's renderer
 * of public pages (`--ssr src/entry-server.tsx`, dist-ssr/), which bundles its dependencies so it runs on the same
 * preact/compat as the browser and its HTML is what the browser's first render produces.
 */
export default defineConfig(({ command, mode, isSsrBuild }) => ({
  plugins: [react(), ethiopicFaces(import.meta.dirname)],
  resolve: {
    alias: command === 'build' && mode !== 'react' ? preactAliases : {},
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000', '/health': 'http://localhost:3000' },
  },
  build: {
    outDir: isSsrBuild ? 'dist-ssr' : 'dist',
    // The app (index.html) and, for reading pages, their islands alone (src/islands/start.tsx).
    sourcemap: false,
    assetsInlineLimit: 0,
    manifest: !isSsrBuild,
    // The server's renderer imports an island both ways (the header renders the menu; the island registry loads it
    // by name): in a bundle that never travels over the network a chunk split gains nothing, so the warning that one
    // did not happen is left to the browser's build, where it would mean a page loads code it did not ask for.
    rolldownOptions: isSsrBuild
      ? { checks: { ineffectiveDynamicImport: false } }
      : { input: ['index.html', 'src/islands/start.tsx'], output: { codeSplitting: SHARED_CHUNKS } },
  },
  ssr: { noExternal: true, target: 'node' },
  test: {
    name: 'web',
    include: ['test/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'],
    // Behaviour that differs between the two runs on Preact alone (vitest.preact.config.ts).
    exclude: [...configDefaults.exclude, '**/*.preact.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
    // A file's first test pays for jsdom, the translations and the screens' modules: over 5 s on a busy 2-core machine.
    testTimeout: 20_000,
  },
}));
