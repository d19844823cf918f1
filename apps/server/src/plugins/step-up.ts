import type { FastifyRequest } from 'fastify';
import { USERS_API_BASE, type Actor } from '@app/shared';
import { AppError, httpError } from '../errors';

/** How long a proof (a second factor, or the password of an account without one; a sign-in counts) lasts for step-up. */
export const STEP_UP_WINDOW_MS = 5 * 60_000;
export const STEP_UP_ROUTE = `${USERS_API_BASE}/step-up`;
export const STEP_UP_REQUIRED = 'Confirm it is you: enter a code from your authenticator app (or your password) again';

/**
 * For the actions that can hurt a witness (decisions.md §4: role changes, purge, merge, lifting `withheld`, exporting
 * private records, rotating a signing key): 403 `stepUpRequired`, naming the route that satisfies it, unless the
 * session proved a factor in the last five minutes. Call it after the permission check; any area can.
 */
export async function requireRecentStepUp(request: FastifyRequest): Promise<void> {
  const account = await request.getAccount();
  if (!account) throw httpError.unauthorized();
  assertRecentStepUp(account);
}

/** The same check on an actor the server resolved (its `verifiedAt`), for code deeper than the route. */
export function assertRecentStepUp(actor: Pick<Actor, 'verifiedAt'>, now = Date.now()): void {
  if (actor.verifiedAt && now - actor.verifiedAt.getTime() <= STEP_UP_WINDOW_MS) return;
  throw new AppError(403, { message: STEP_UP_REQUIRED, code: 'stepUpRequired', stepUp: STEP_UP_ROUTE });
}
