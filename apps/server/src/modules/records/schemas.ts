import { z } from 'zod';
import { dataFields, incidentRefSchema, recordSchema, SOURCE_KINDS, type CategoryDef, type FieldDef } from '@app/shared';

/** Answers of the records routes the web app does not read by these names (its types are in packages/shared). */

/** A data field's value in an answer: null when empty, a number for quantities, text otherwise (dates as ISO 8601). */
function answerValue(field: FieldDef): z.ZodType {
  switch (field.kind) {
    case 'quantity':
    case 'coordinate':
      return z.number().nullable();
    case 'sources':
      return z.array(sourceAnswer);
    default:
      return z.string().nullable();
  }
}

/** A source as answered: a withheld testimony's details only to its record's editors. */
const sourceAnswer = z.object({
  kind: z.enum(SOURCE_KINDS),
  title: z.string(),
  publisher: z.string().optional(),
  date: z.string().optional().describe('YYYY, YYYY-MM or YYYY-MM-DD'),
  url: z.string().optional(),
  language: z.string().optional().describe('BCP 47 language tag'),
  note: z.string().optional(),
  withheld: z.literal(true).optional().describe('A witness testimony withheld for the witness\'s safety'),
});

/** A record of `category` as its routes answer it: the common fields and, by name and kind, the registry's own. */
export function categoryRecordSchema(category: CategoryDef) {
  const own: Record<string, z.ZodType> = {};
  for (const field of dataFields(category)) if (!(field.name in recordSchema.shape)) own[field.name] = answerValue(field);
  if (dataFields(category).some((field) => field.kind === 'incident')) {
    own.incident = incidentRefSchema.optional().describe('The incident as this reader may see it; absent when none is linked or the reader may not read it');
  }
  return recordSchema.extend(own);
}

/** DELETE /trash/{id}: the purged record's id. */
export const purgedSchema = z.object({ _id: z.string(), purged: z.literal(true) });

/** A read answered from the ETag the reader sent: no body. */
export const notModified = z.unknown().describe('Not modified: the ETag sent in If-None-Match is current');

/** A person merged into another (modules/duplicates): Location is the kept record's address. */
export const mergedRedirectBody = z
  .object({ message: z.string(), mergedInto: z.string().describe('The id of the record this one was merged into') })
  .describe('Merged into another record: Location is its address');
