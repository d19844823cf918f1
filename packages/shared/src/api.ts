import type { Role } from './permissions';

export const API_VERSION = '1.0.0';
export const API_BASE = `/api/v${API_VERSION}`;
export const USERS_API_BASE = '/api/users';

export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 200;

/** Header carrying a list's total (the "(n)" of list titles). */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';

/** GET /media/verify: fixity check of every stored original (uploads, and link captures as `capture:<id>`). */
export interface MediaVerifyReport {
  checked: number;
  ok: number;
  mismatched: { id: string; key: string; expected: string; actual: string }[];
  missing: { id: string; key: string }[];
}

export interface JwtClaims {
  id: string;
  role: Role;
  name: string;
  exp: number;
  /** Token version: raised by a password reset or role change so older tokens stop working. */
  tv: number;
  /** The session id: ending the session (sign-out, "sign out everywhere") refuses the token at once. */
  sid?: string;
}
