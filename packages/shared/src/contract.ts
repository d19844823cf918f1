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

/** A stored file of a capture: its SHA-256 and size, and a URL when the reader may fetch it. */
export interface CaptureFileDto {
  sha256: string;
  size: number;
  /** Null when the reader may not download it (snapshots and headers: signed-in editors, or the record allows it). */
  url: string | null;
}

/** One capture of a cited link (GET /api/v1.0.0/{category}/{id}/captures). */
export interface LinkCaptureDto {
  id: string;
  field: string;
  url: string;
  status: 'queued' | 'processing' | 'done' | 'failed';
  /** Why it failed, or why the last attempt did while it waits for the next. */
  reason: string | null;
  attempts: number;
  requestedAt: string;
  capturedAt: string | null;
  finalUrl: string | null;
  httpStatus: number | null;
  pageTitle: string | null;
  screenshot: CaptureFileDto | null;
  snapshot: CaptureFileDto | null;
  headers: CaptureFileDto | null;
}

/** A record's captures, newest first, and what the reader may do with them. */
export interface RecordCapturesDto {
  /** Anyone who may read the record may download its snapshots (an admin's choice, off by default). */
  publicDownload: boolean;
  /** The reader may ask for new captures (the record's editors, while captures are turned on). */
  canRequest: boolean;
  /** The reader may switch publicDownload (admin, super). */
  canConfigure: boolean;
  captures: LinkCaptureDto[];
}

/** A representative as the public campaign directory shows them (office data only). */
export const representativeSchema = z.object({
  id: z.string(),
  name: z.string(),
  party: z.string().nullable(),
  district: z.string(),
  email: z.string().nullable(),
  /** False when the representative has no usable e-mail: listed, but cannot be written to (with `note`). */
  available: z.boolean(),
  note: z.string().nullable(),
});
export type Representative = z.infer<typeof representativeSchema>;

/** GET /api/v1.0.0/campaign/directory: the countries, their provinces and representatives, and each default letter. */
export const campaignCountrySchema = z.object({
  code: z.string(),
  name: z.string(),
  defaultMessage: z.string(),
  provinces: z.array(z.object({ name: z.string(), representatives: z.array(representativeSchema) })),
});
export type CampaignCountry = z.infer<typeof campaignCountrySchema>;
export type CampaignProvince = CampaignCountry['provinces'][number];

/** POST /api/v1.0.0/reports: the letter waits for the sender's confirmation by e-mail. */
export const submittedLetterSchema = z.object({
  _id: z.string(),
  state: z.string(),
  expiresAt: z.string(),
  /** The server's words telling the sender to confirm by e-mail. */
  notice: z.string(),
});
export type SubmittedLetter = z.infer<typeof submittedLetterSchema>;

/** GET and POST /api/v1.0.0/campaign/confirm/{token}: what the confirmation page shows. */
export const letterConfirmationSchema = z.object({
  _id: z.string(),
  /** awaiting_confirmation, confirmed, sent, expired or failed. */
  state: z.string(),
  representative: z.object({ name: z.string(), district: z.string() }),
});
export type LetterConfirmation = z.infer<typeof letterConfirmationSchema>;

/** PUT /api/v1.0.0/representatives/{id}: the corrected representative (admin, super). */
export const correctedRepresentativeSchema = representativeSchema.extend({ country: z.string(), province: z.string(), correctedAt: z.string() });

/** PUT /api/v1.0.0/campaign/defaults/{country}: the country's new default letter (admin, super). */
export const campaignDefaultSchema = campaignCountrySchema.pick({ code: true, name: true, defaultMessage: true });
