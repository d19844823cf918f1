import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { CATEGORY_LIST } from '@app/shared';
import { Layout } from '../components/Layout';
import { NotFound } from '../components/NotFound';
import { RequireAuth } from '../components/RequireAuth';
import { Loading } from '../components/Status';

/**
 * Every route of the spec's route list (spec §2), code-split per screen. Features meet only here.
 * Category routes come from the registry: list at `route`, detail at `route/:id`, edit at `route/edit/:id`.
 */
type PageModule = { default: ComponentType };

const page = (load: () => Promise<PageModule>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

const guarded = (load: () => Promise<PageModule>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => {
    const Page = (await load()).default;
    return {
      Component: () => (
        <RequireAuth>
          <Page />
        </RequireAuth>
      ),
    };
  },
});

const listPage = () => import('../features/records/ListPage');
const detailPage = () => import('../features/records/DetailPage');
const editPage = () => import('../features/records/EditPage');

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    HydrateFallback: () => <Loading />,
    children: [
      { index: true, ...page(() => import('../features/home/HomePage')) },
      { path: 'about', ...page(() => import('../features/about/AboutPage')) },
      { path: 'images', ...page(() => import('../features/gallery/GalleryPage')) },
      { path: 'images/:id', ...page(() => import('../features/gallery/ImageViewerPage')) },
      { path: 'images/edit/:id', ...guarded(() => import('../features/gallery/ImageEditPage')) },
      ...CATEGORY_LIST.flatMap((c): RouteObject[] => [
        { path: c.route.slice(1), ...page(listPage) },
        { path: `${c.route.slice(1)}/:id`, ...page(detailPage) },
        // Every edit route is guarded (decisions §2), unlike the first build.
        { path: `${c.route.slice(1)}/edit/:id`, ...guarded(editPage) },
      ]),
      { path: 'dashboard', ...guarded(() => import('./DashboardRoute')) },
      { path: 'signup', ...page(() => import('../features/auth/SignUpPage')) },
      { path: 'signin', ...page(() => import('../features/auth/SignInPage')) },
      { path: 'forgotpassword', ...page(() => import('../features/auth/ForgotPasswordPage')) },
      { path: 'resetpassword/:token', ...page(() => import('../features/auth/ResetPasswordPage')) },
      { path: 'user/activation/:token', ...page(() => import('../features/auth/ActivationPage')) },
      { path: 'activation-message', ...page(() => import('../features/auth/ActivationMessagePage')) },
      { path: 'check-email', ...page(() => import('../features/auth/CheckEmailPage')) },
      { path: 'logout', ...page(() => import('../features/auth/LogoutPage')) },
      { path: 'reports', ...page(() => import('../features/reports/ReportsPage')) },
      { path: 'campaign/confirm/:token', ...page(() => import('../features/campaign/ConfirmPage')) },
      { path: 'admin/trash', ...guarded(() => import('../features/admin/TrashPage')) },
      { path: 'admin/audit', ...guarded(() => import('../features/admin/AuditPage')) },
      { path: 'admin/users', ...guarded(() => import('../features/admin/UsersPage')) },
      { path: '*', Component: NotFound },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
