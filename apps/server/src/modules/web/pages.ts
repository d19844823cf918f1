import { CATEGORY_LIST, paths } from '@app/shared';

/**
 * Every page of the web app (its router: apps/web/src/app/router.tsx) as a route pattern, so each page is served by
 * a route declared for it; the not-found handler answers only addresses that are no page (with the app's 404 page).
 */
export function pageRoutes(): string[] {
  const records = CATEGORY_LIST.flatMap((c) => [paths.list(c.slug), paths.detail(c.slug, ':id'), paths.edit(c.slug, ':id')]);
  return [
    paths.home,
    paths.about,
    paths.search,
    paths.statistics,
    paths.map,
    paths.exportData,
    paths.mirrors,
    paths.images,
    paths.image(':id'),
    paths.imageEdit(':id'),
    ...records,
    paths.dashboard,
    paths.signup,
    paths.signin,
    paths.forgotPassword,
    paths.resetPassword(':token'),
    paths.activation(':token'),
    paths.activationMessage,
    paths.checkEmail,
    paths.reports,
    paths.logout,
    paths.admin,
    paths.trash,
    paths.duplicates,
    paths.testimonies,
    paths.imports,
    paths.audit,
    paths.users,
    paths.checkpoints,
    paths.representatives,
    paths.accountsQueue,
    paths.accessLog,
    paths.pending,
    paths.sessions,
    paths.twoFactor,
    paths.campaignConfirm(':token'),
  ];
}
