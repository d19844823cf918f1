import { withheldReaderOf, type Source } from './sources';

/**
 * Roles and permissions. The server enforces these; the web app calls the same functions only to
 * decide which controls to show.
 */
export const ROLES = ['pending', 'contributor', 'admin', 'super'] as const;
export type Role = (typeof ROLES)[number];

/** Roles an account reaches once an admin trusts it (every role but `pending`). */
export const APPROVED_ROLES = ['contributor', 'admin', 'super'] as const satisfies readonly Role[];

export interface Actor {
  id: string;
  role: Role;
  /** The session the request's token belongs to (the JWT's `sid` claim), when the server resolved one. */
  sid?: string;
  /** Server side: when the session last proved a second factor or the password (step-up). */
  verifiedAt?: Date;
}

export type MaybeActor = Actor | null | undefined;

const isStaff = (actor: MaybeActor): actor is Actor => actor?.role === 'admin' || actor?.role === 'super';

/** A signed-in account an admin has approved: a pending account can do nothing an anonymous visitor cannot. */
const isApproved = (actor: MaybeActor): boolean => Boolean(actor) && actor!.role !== 'pending';

export const isStaffRole = (role: Role | null | undefined) => role === 'admin' || role === 'super';

export const can = {
  readPrivate: isApproved,
  create: isApproved,
  /** Edit, delete, and delete one image: the owner, or admin/super. */
  modify: (actor: MaybeActor, record: { userId?: string | null }) =>
    isApproved(actor) && (isStaff(actor) || (typeof record.userId === 'string' && record.userId === actor!.id)),
  /**
   * A withheld testimony's details: staff, and its author (the record's owner unless a merge brought it from another
   * record), whoever owns the record it is on now.
   */
  readWithheld: (actor: MaybeActor, record: { userId?: string | null }, source: Source) =>
    isStaff(actor) || (isApproved(actor) && withheldReaderOf(source, record) === actor!.id),
  /** Turning a withheld testimony public: staff only, not even its author (a witness's safety is staff's call). */
  liftWithheld: isStaff,
  approve: isStaff,
  /** The accounts queue: approving or declining pending accounts, inviting. */
  approveAccounts: isStaff,
  toggleAccess: isStaff,
  restore: isStaff,
  readAudit: isStaff,
  purge: (actor: MaybeActor) => actor?.role === 'super',
  manageUsers: (actor: MaybeActor) => actor?.role === 'super',
  manageDirectory: isStaff,
};
