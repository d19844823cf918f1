import { z } from 'zod';
import { CATEGORY_SLUGS } from './categories/types';
import { ROLES } from './permissions';

/**
 * Answers of the API, declared once: the server validates and documents them with these schemas, the web app reads
 * its types from them.
 */

/** Body of every 4xx: field errors keyed by field name, or `message` for errors not tied to a field. */
export const errorBodySchema = z.record(z.string(), z.string());
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const imageVariantSchema = z.object({
  width: z.number(),
  format: z.enum(['webp', 'avif', 'jpeg']),
  url: z.string(),
});
export type ImageVariant = z.infer<typeof imageVariantSchema>;

/** What an original's metadata says about its capture: editors of the owning record only. */
export const restrictedMediaInfoSchema = z.object({
  capturedAt: z.string().optional(),
  gps: z.object({ latitude: z.number(), longitude: z.number(), altitude: z.number().optional() }).optional(),
  make: z.string().optional(),
  model: z.string().optional(),
  software: z.string().optional(),
});
export type RestrictedMediaInfo = z.infer<typeof restrictedMediaInfoSchema>;

/** One stored file as the public API shows it. */
export const mediaSchema = z.object({
  imageId: z.string(),
  imageUrl: z.string(),
  kind: z.enum(['image', 'video', 'poster']),
  width: z.number().nullable(),
  height: z.number().nullable(),
  variants: z.array(imageVariantSchema),
  sha256: z.string(),
  caption: z.string().nullable(),
  graphic: z.boolean(),
  status: z.enum(['queued', 'processing', 'ready', 'failed']),
  /** Size in bytes and detected type of the original (whose SHA-256 is `sha256`). */
  size: z.number().optional(),
  mime: z.string().optional(),
  /** Videos: the poster's widest JPEG (its other copies are in `variants`); null until processed. */
  posterUrl: z.string().nullable().optional(),
  /** Editors of the owning record only: what the original's metadata says about capture. */
  restricted: restrictedMediaInfoSchema.nullable().optional(),
  /** Editors only: why processing failed or how the file is served. */
  statusReason: z.string().nullable().optional(),
});
export type MediaDto = z.infer<typeof mediaSchema>;

/**
 * A record as the API returns it: the fields every category has, and (loose, as the registry declares them per
 * category) the category's own data fields. Trash fields only in the trash and in the answer of a move to it.
 */
export const recordSchema = z.looseObject({
  _id: z.string(),
  category: z.enum(CATEGORY_SLUGS),
  title: z.string(),
  subtitle: z.string().nullable(),
  description: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  imageUrl: z.string(),
  images: z.array(mediaSchema),
  approved: z.boolean(),
  approvedAt: z.string().nullable(),
  public: z.boolean(),
  graphic: z.boolean(),
  /** The account that created the record: shown to signed-in readers only (anonymous answers name no account). */
  userId: z.string().nullable().optional(),
  deletedAt: z.string().nullable().optional(),
  deletedBy: z.string().nullable().optional(),
});
export type RecordDto = z.infer<typeof recordSchema>;

/** One item of the derived /images gallery. `_id` is the image's own id, used in /images/{id}. */
export const galleryItemSchema = z.object({
  _id: z.string(),
  imageId: z.string(),
  imageUrl: z.string(),
  variants: z.array(imageVariantSchema),
  width: z.number().nullable(),
  height: z.number().nullable(),
  caption: z.string().nullable(),
  graphic: z.boolean(),
  recordId: z.string(),
  category: z.enum(CATEGORY_SLUGS),
  title: z.string(),
});
export type GalleryItemDto = z.infer<typeof galleryItemSchema>;

/** The signed-in user's own view (GET /api/users/me). */
export const meResponseSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(ROLES),
});

/** A user as the super's user list shows it. */
export const userListItemSchema = meResponseSchema.extend({
  active: z.boolean(),
  createdAt: z.string(),
});
export type UserListItem = z.infer<typeof userListItemSchema>;

/** An account in the admins' queue (GET /api/users/pending): what the person said at sign-up, for the decision. */
export const accountQueueItemSchema = meResponseSchema.extend({
  active: z.boolean(),
  organisation: z.string().nullable(),
  reason: z.string().nullable(),
  invited: z.boolean(),
  decidedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AccountQueueItem = z.infer<typeof accountQueueItemSchema>;

/** One session of the signed-in account (GET /api/users/sessions); `current` marks the one asking. */
export const sessionItemSchema = z.object({
  id: z.string(),
  browser: z.string(),
  /** The first three octets of the address the session started from. */
  address: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type SessionItem = z.infer<typeof sessionItemSchema>;

/** One entry of the audit log (GET /api/v1.0.0/audit), with the hashes that chain it to the entry before. */
export const auditEntrySchema = z.object({
  seq: z.number(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorRole: z.string().nullable(),
  /** The account's name as it is now (first and last), for the log's "Who"; null for the site itself or a removed account. */
  actorName: z.string().nullable().optional(),
  action: z.string(),
  category: z.string().nullable(),
  recordId: z.string().nullable(),
  subject: z.string().nullable(),
  changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })),
  prevHash: z.string(),
  hash: z.string(),
});
export type AuditEntryDto = z.infer<typeof auditEntrySchema>;

/** GET /api/v1.0.0/audit/verify: the chain checked against its signed checkpoints. */
export const auditChainReportSchema = z.object({
  ok: z.boolean(),
  entries: z.number(),
  firstBrokenSeq: z.number().nullable(),
  reason: z.string().nullable(),
  checkpoints: z.number(),
  /** The newest checkpoint the chain reaches, when there is one. */
  newestCheckpointSeq: z.number().nullable(),
  /** Checkpoints whose RFC 3161 time-stamp verified. */
  timestamped: z.number().optional(),
  /** `trusted`: the time-stamps' certificates chain to TSA_CA_FILE; `not-checked`: no TSA_CA_FILE, no chain checked. */
  timestampChain: z.enum(['trusted', 'not-checked']).optional(),
  /** Said when time-stamps verified without their chain being checked. */
  timestampNote: z.string().optional(),
});
export type AuditChainReport = z.infer<typeof auditChainReportSchema>;

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
  /** Why it failed, or why the last attempt did while it waits for the next: for the record's editors only (null to others). */
  reason: string | null;
  attempts: number;
  requestedAt: string;
  capturedAt: string | null;
  /** The address and status of the document the capture shows (after redirects, and after the page replaced itself). */
  finalUrl: string | null;
  httpStatus: number | null;
  /** The document the page first loaded, when the page replaced it by another before the capture; null otherwise. */
  firstLoad: { url: string; status: number } | null;
  pageTitle: string | null;
  screenshot: CaptureFileDto | null;
  snapshot: CaptureFileDto | null;
  headers: CaptureFileDto | null;
  /** The web archive (WARC records packaged as a signed WACZ): for the same readers as the snapshot. */
  wacz: CaptureFileDto | null;
  /** The TLS certificate chains the cited site showed the capture (PEM): for the same readers as the snapshot. */
  certificates: CaptureFileDto | null;
  /** The time the WACZ's RFC 3161 time-stamp states, when one was asked for and verified. */
  timestampedAt: string | null;
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
