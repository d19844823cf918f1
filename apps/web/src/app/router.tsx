import type { ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { CATEGORY_LIST } from '@app/shared';
import { Layout } from '../components/Layout';
import { NotFound } from '../components/NotFound';
import { RequireAuth } from '../components/RequireAuth';
import { Loading } from '../components/Status';

/**
 * Every route of the spec's route list, code-split per screen. Features meet only here.
 * Category routes come from the registry: list at `route`, detail at `route/:id`, edit at `route/edit/:id`.
 *
 * Screens are named by their file (`handle.module`, the key of Vite's build manifest), so the server can link the
 * chunks and styles of the screen it renders. Public screens (`handle.prerender`) are rendered to HTML by the
 * server: a visitor on a slow connection reads them before any script has arrived.
 */
type PageModule = { default: ComponentType };
export interface RouteHandle {
  module: string;
  prerender: boolean;
  /** The HTTP status of the server-rendered page (404 for the catch-all); 200 when not set. */
  status?: number;
}

const screens = {
  ...import.meta.glob<PageModule>('../features/*/*Page.tsx'),
  ...import.meta.glob<PageModule>('./DashboardRoute.tsx'),
  ...import.meta.glob<PageModule>('./SearchRoute.tsx'),
};

/** The build manifest names a module by its path from the web app's folder: '../x/Y.tsx' here is 'src/x/Y.tsx'. */
const manifestKey = (fileFromHere: string) => new URL(fileFromHere, 'file:///src/app/').pathname.slice(1);

function screen(file: string, options: { prerender?: boolean; guarded?: boolean } = {}): Pick<RouteObject, 'lazy' | 'handle'> {
  const load = screens[file];
  if (!load) throw new Error(`No screen ${file}`);
  const handle: RouteHandle = { module: manifestKey(file), prerender: options.prerender ?? false };
  return {
    handle,
    lazy: async () => {
      const Page = (await load()).default;
      if (!options.guarded) return { Component: Page };
      return {
        Component: () => (
          <RequireAuth>
            <Page />
          </RequireAuth>
        ),
      };
    },
  };
}

const publicScreen = (file: string) => screen(file, { prerender: true });
const page = (file: string) => screen(file);
const guarded = (file: string) => screen(file, { guarded: true });

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    HydrateFallback: () => <Loading />,
    children: [
      { index: true, ...publicScreen('../features/home/HomePage.tsx') },
      { path: 'about', ...publicScreen('../features/about/AboutPage.tsx') },
      { path: 'search', ...publicScreen('./SearchRoute.tsx') },
      { path: 'images', ...publicScreen('../features/gallery/GalleryPage.tsx') },
      { path: 'images/:id', ...publicScreen('../features/gallery/ImageViewerPage.tsx') },
      { path: 'images/edit/:id', ...guarded('../features/gallery/ImageEditPage.tsx') },
      ...CATEGORY_LIST.flatMap((c): RouteObject[] => [
        { path: c.route.slice(1), ...publicScreen('../features/records/ListPage.tsx') },
        { path: `${c.route.slice(1)}/:id`, ...publicScreen('../features/records/DetailPage.tsx') },
        // Every edit route is guarded, unlike the first build.
        { path: `${c.route.slice(1)}/edit/:id`, ...guarded('../features/records/EditPage.tsx') },
      ]),
      { path: 'dashboard', ...guarded('./DashboardRoute.tsx') },
      { path: 'signup', ...page('../features/auth/SignUpPage.tsx') },
      { path: 'signin', ...page('../features/auth/SignInPage.tsx') },
      { path: 'forgotpassword', ...page('../features/auth/ForgotPasswordPage.tsx') },
      { path: 'resetpassword/:token', ...page('../features/auth/ResetPasswordPage.tsx') },
      { path: 'user/activation/:token', ...page('../features/auth/ActivationPage.tsx') },
      { path: 'activation-message', ...page('../features/auth/ActivationMessagePage.tsx') },
      { path: 'check-email', ...page('../features/auth/CheckEmailPage.tsx') },
      { path: 'logout', ...page('../features/auth/LogoutPage.tsx') },
      { path: 'reports', ...publicScreen('../features/reports/ReportsPage.tsx') },
      { path: 'statistics', ...publicScreen('../features/statistics/StatisticsPage.tsx') },
      { path: 'map', ...publicScreen('../features/statistics/MapPage.tsx') },
      { path: 'export', ...publicScreen('../features/export/ExportPage.tsx') },
      { path: 'mirrors', ...publicScreen('../features/mirrors/MirrorsPage.tsx') },
      { path: 'campaign/confirm/:token', ...page('../features/campaign/ConfirmPage.tsx') },
      { path: 'admin', ...guarded('../features/admin/AdminHubPage.tsx') },
      { path: 'admin/trash', ...guarded('../features/admin/TrashPage.tsx') },
      { path: 'admin/duplicates', ...guarded('../features/admin/DuplicatesPage.tsx') },
      { path: 'admin/testimonies', ...guarded('../features/testimony/TestimoniesPage.tsx') },
      { path: 'admin/audit', ...guarded('../features/admin/AuditPage.tsx') },
      { path: 'admin/users', ...guarded('../features/admin/UsersPage.tsx') },
      { path: 'admin/checkpoints', ...guarded('../features/admin/CheckpointsPage.tsx') },
      { path: 'admin/representatives', ...guarded('../features/admin/RepresentativesPage.tsx') },
      { path: 'admin/imports', ...guarded('../features/imports/ImportPage.tsx') },
      { path: 'admin/accounts', ...guarded('../features/admin/AccountsQueuePage.tsx') },
      { path: 'admin/access-log', ...guarded('../features/admin/AccessLogPage.tsx') },
      { path: 'account/pending', ...guarded('../features/auth/PendingPage.tsx') },
      { path: 'account/sessions', ...guarded('../features/auth/SessionsPage.tsx') },
      { path: 'account/two-factor', ...guarded('../features/auth/TwoFactorPage.tsx') },
      // Rendered by the server too, so crawlers and link previews get a 404 with the site's page, not an empty 200.
      { path: '*', Component: NotFound, handle: { module: 'src/components/NotFound.tsx', prerender: true, status: 404 } satisfies RouteHandle },
    ],
  },
];

/**
 * Loads the screens the address needs before the first render, so the app's first render over server-rendered HTML
 * shows the same page instead of a loading state (React Router's pattern for lazy routes and server rendering).
 */
export async function loadScreensFor(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, { ...loaded, lazy: undefined });
    }),
  );
}

export const createRouter = () => createBrowserRouter(routes);
