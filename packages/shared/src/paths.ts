import { CATEGORY_ROUTES } from './categories/routes';
import type { CategorySlug } from './categories/types';

/**
 * The query parameter a merged record's old address leads to the kept record's page with (`?merged=1`), so that page
 * says why the reader is there; the page is cached apart with it (apps/server/src/modules/web/plugin.ts).
 */
export const MERGED_PARAM = 'merged';

/** Web route paths, in one place so links and the router agree. */
export const paths = {
  home: '/',
  about: '/about',
  search: '/search',
  statistics: '/statistics',
  map: '/map',
  /** The open-data page: the formats of the export and what their columns mean. */
  exportData: '/export',
  mirrors: '/mirrors',
  images: '/images',
  image: (id: string) => `/images/${id}`,
  imageEdit: (id: string) => `/images/edit/${id}`,
  list: (slug: CategorySlug) => CATEGORY_ROUTES[slug],
  detail: (slug: CategorySlug, id: string) => `${CATEGORY_ROUTES[slug]}/${id}`,
  edit: (slug: CategorySlug, id: string) => `${CATEGORY_ROUTES[slug]}/edit/${id}`,
  dashboard: '/dashboard',
  signup: '/signup',
  signin: '/signin',
  forgotPassword: '/forgotpassword',
  resetPassword: (token: string) => `/resetpassword/${token}`,
  activation: (token: string) => `/user/activation/${token}`,
  activationMessage: '/activation-message',
  checkEmail: '/check-email',
  reports: '/reports',
  logout: '/logout',
  admin: '/admin',
  trash: '/admin/trash',
  duplicates: '/admin/duplicates',
  testimonies: '/admin/testimonies',
  /** The witness's form, a page of the server's own (modules/testimony), not of the web app. */
  testify: '/testify',
  imports: '/admin/imports',
  audit: '/admin/audit',
  users: '/admin/users',
  checkpoints: '/admin/checkpoints',
  representatives: '/admin/representatives',
  /** The admins' queue of accounts waiting for approval, and invitations. */
  accountsQueue: '/admin/accounts',
  /** Reads of private records and withheld testimonies by accounts. */
  accessLog: '/admin/access-log',
  /** What a signed-in account not yet approved sees. */
  pending: '/account/pending',
  sessions: '/account/sessions',
  /** Setting up a second factor (required of staff before anything else). */
  twoFactor: '/account/two-factor',
  campaignConfirm: (token: string) => `/campaign/confirm/${token}`,
} as const;
