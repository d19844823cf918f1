import { z } from 'zod';

/** A copy of the public site that an institution keeps (docs/mirror.md), as admins list it on /mirrors. */
export const knownMirrorInputSchema = z.strictObject({
  name: z.string({ error: 'Name the keeper of the copy' }).trim().min(2, { error: 'At least 2 characters' }).max(200, { error: 'At most 200 characters' }),
  url: z
    .string({ error: 'Give the address of the copy' })
    .trim()
    .max(500, { error: 'At most 500 characters' })
    .refine((value) => /^(https?:\/\/|ipfs:\/\/|ipns:\/\/)\S+$/.test(value), { error: 'An address starting with https://, http://, ipfs:// or ipns://' }),
  fingerprint: z
    .string({ error: "Give the fingerprint of the key the copy was checked with" })
    .trim()
    .transform((value) => value.toLowerCase().replace(/[\s:]/g, ''))
    .pipe(z.string().regex(/^[0-9a-f]{64}$/, { error: 'A SHA-256 fingerprint: 64 hexadecimal digits' })),
  note: z.string().trim().max(500, { error: 'At most 500 characters' }).default(''),
});
export type KnownMirrorInput = z.input<typeof knownMirrorInputSchema>;

export const knownMirrorSchema = z.object({
  _id: z.string(),
  name: z.string(),
  url: z.string(),
  fingerprint: z.string(),
  note: z.string(),
  createdAt: z.string(),
});
export type KnownMirror = z.infer<typeof knownMirrorSchema>;

export const knownMirrorsSchema = z.object({
  /** This site's own mirror key (/.well-known/mirror-key): what a copy made from this site verifies against. */
  siteKeyFingerprint: z.string(),
  mirrors: z.array(knownMirrorSchema),
});
export type KnownMirrors = z.infer<typeof knownMirrorsSchema>;
