import { z } from 'zod';
import { dataFields, recordSchema, type CategoryDef, type FieldDef } from '@app/shared';

/** Answers of the records routes the web app does not read by these names (its types are in packages/shared). */

/** A data field's value in an answer: null when empty, a number for quantities, text otherwise (dates as ISO 8601). */
function answerValue(field: FieldDef): z.ZodType {
  return field.kind === 'quantity' ? z.number().nullable() : z.string().nullable();
}

/** A record of `category` as its routes answer it: the common fields and, by name and kind, the registry's own. */
export function categoryRecordSchema(category: CategoryDef) {
  const own: Record<string, z.ZodType> = {};
  for (const field of dataFields(category)) if (!(field.name in recordSchema.shape)) own[field.name] = answerValue(field);
  return recordSchema.extend(own);
}

/** DELETE /trash/{id}: the purged record's id. */
export const purgedSchema = z.object({ _id: z.string(), purged: z.literal(true) });

/** A read answered from the ETag the reader sent: no body. */
export const notModified = z.unknown().describe('Not modified: the ETag sent in If-None-Match is current');
