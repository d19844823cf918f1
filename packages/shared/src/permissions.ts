import { withheldReaderOf, type Source } from './sources';

/**
 * Roles and permissions. The server enforces these; the web app calls the same functions only to
 * decide which controls to show.
 */
export const ROLES = ['contributor', 'admin', 'super'] as const;
export type Role = (typeof ROLES)[number];

export interface Actor {
  id: string;
  role: Role;
}

export type MaybeActor = Actor | null | undefined;

const isStaff = (actor: MaybeActor): actor is Actor => actor?.role === 'admin' || actor?.role === 'super';

export const can = {
  readPrivate: (actor: MaybeActor) => Boolean(actor),
  create: (actor: MaybeActor) => Boolean(actor),
  /** Edit, delete, and delete one image: the owner, or admin/super. */
  modify: (actor: MaybeActor, record: { userId?: string | null }) =>
    Boolean(actor) && (isStaff(actor) || (typeof record.userId === 'string' && record.userId === actor!.id)),
  /**
   * A withheld testimony's details: staff, and its author (the record's owner unless a merge brought it from another
   * record), whoever owns the record it is on now.
   */
  readWithheld: (actor: MaybeActor, record: { userId?: string | null }, source: Source) =>
    isStaff(actor) || (Boolean(actor) && withheldReaderOf(source, record) === actor!.id),
  /** Turning a withheld testimony public: staff only, not even its author (a witness's safety is staff's call). */
  liftWithheld: isStaff,
  approve: isStaff,
  toggleAccess: isStaff,
  restore: isStaff,
  readAudit: isStaff,
  purge: (actor: MaybeActor) => actor?.role === 'super',
  manageUsers: (actor: MaybeActor) => actor?.role === 'super',
  manageDirectory: isStaff,
};
