import { z } from 'zod';
import { offsetPageQuerySchema } from '@app/shared';
import type { AuditCheckpointRow } from '../../db/schema';

/** Request and response shapes of the audit routes the web app does not read (its types are in packages/shared). */

export const auditQuery = offsetPageQuerySchema.extend({
  recordId: z.uuid({ error: 'Must be a record id' }).optional(),
  actorId: z.uuid({ error: 'Must be a user id' }).optional(),
});

/** A signed checkpoint of the chain's head: what anyone may keep to detect a rewritten or cut chain later. */
export const checkpointSchema = z.object({
  seq: z.number(),
  hash: z.string(),
  at: z.string(),
  keyId: z.string(),
  publicKey: z.string(),
  signature: z.string(),
  timestampToken: z.string().nullable(),
  timestampedAt: z.string().nullable(),
});

export function checkpointDto(row: AuditCheckpointRow): z.infer<typeof checkpointSchema> {
  return {
    seq: row.seq,
    hash: row.hash,
    at: row.at.toISOString(),
    keyId: row.keyId,
    publicKey: row.publicKey,
    signature: row.signature,
    timestampToken: row.timestampToken,
    timestampedAt: row.timestampedAt?.toISOString() ?? null,
  };
}
