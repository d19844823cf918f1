import { z } from 'zod';
import { ROLES } from './permissions';

/**
 * Answers of the accounts, audit and campaign APIs, declared once: the server validates and documents them with these
 * schemas, the web app reads its types from them (records have theirs in categories/ and api.ts).
 */

/** The signed-in user's own view (GET /api/users/me). */
export const meResponseSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(ROLES),
});
export type MeResponse = z.infer<typeof meResponseSchema>;

/** A user as the super's user list shows it. */
export const userListItemSchema = meResponseSchema.extend({
  active: z.boolean(),
  createdAt: z.string(),
});
export type UserListItem = z.infer<typeof userListItemSchema>;

/** One entry of the audit log (GET /api/v1.0.0/audit). */
export interface AuditEntryDto {
  seq: number;
  at: string;
  actorId: string | null;
  actorRole: string | null;
  action: string;
  category: string | null;
  recordId: string | null;
  subject: string | null;
  changes: Record<string, { before: unknown; after: unknown }>;
}

/** GET /api/v1.0.0/audit/verify: the chain checked against its signed checkpoints. */
export interface AuditChainReport {
  ok: boolean;
  entries: number;
  firstBrokenSeq: number | null;
  reason: string | null;
  checkpoints: number;
  /** The newest checkpoint the chain reaches, when there is one. */
  newestCheckpointSeq: number | null;
  /** Checkpoints whose RFC 3161 time-stamp verified. */
  timestamped?: number;
}

/** A delivered campaign letter as /reports lists it: never the sender, only the letter. */
export interface ReportDto {
  _id: string;
  title: string;
  message: string;
  createdAt: string;
}
