import { z } from 'zod';
import { REGION_CODES } from './places/regions';

/** A witness's testimony as the form sends it and a reviewer reads it (decrypted): the sealed envelope's content. */

export const TESTIMONY_STATUSES = ['new', 'in-review', 'used', 'declined'] as const;
export type TestimonyStatus = (typeof TESTIMONY_STATUSES)[number];
export const CONSENTS = ['publish', 'share', 'contact'] as const;

const text = (max: number, label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters` })
    .default('');

export const testimonyEnvelopeSchema = z.object({
  statement: z
    .string({ error: 'Say what happened' })
    .trim()
    .min(1, { error: 'Say what happened' })
    .max(50_000, { error: 'What happened must be at most 50,000 characters' }),
  /** A date (YYYY-MM-DD) or words ("about March 2021"). */
  happenedOn: text(100, 'When'),
  region: z.union([z.enum(REGION_CODES, { error: 'Choose a region from the list' }), z.literal('')]).default(''),
  zone: text(100, 'Zone'),
  woreda: text(100, 'Woreda'),
  place: text(1000, 'Where'),
  people: text(10_000, 'Who was harmed'),
  contact: text(1000, 'How to contact you'),
  consent: z.array(z.enum(CONSENTS, { error: 'Unknown consent' })).max(3).default([]),
});
export type TestimonyEnvelope = z.infer<typeof testimonyEnvelopeSchema>;

export const testimonyReceiptSchema = z.object({
  receipt: z
    .string({ error: 'Enter your 16-digit receipt' })
    .transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{16}$/, { error: 'A receipt is 16 digits' })),
});

export const testimonyMessageSchema = z.object({
  author: z.enum(['reviewer', 'witness']),
  text: z.string(),
  createdAt: z.string(),
});

export const testimonyListItemSchema = z.object({
  id: z.string(),
  status: z.enum(TESTIMONY_STATUSES),
  unverified: z.boolean(),
  files: z.number(),
  messages: z.number(),
  sealedBytes: z.number(),
  recordId: z.string().nullable(),
  createdAt: z.string(),
});

export const testimonyFileSchema = z.object({ id: z.string(), name: z.string(), type: z.string(), size: z.number(), sha256: z.string() });

export const testimonyDetailSchema = testimonyListItemSchema.extend({
  envelope: testimonyEnvelopeSchema,
  fileList: z.array(testimonyFileSchema),
  messageList: z.array(testimonyMessageSchema),
});
export type TestimonyDetail = z.infer<typeof testimonyDetailSchema>;
