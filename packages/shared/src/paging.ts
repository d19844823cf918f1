import { z } from 'zod';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from './api';

/**
 * The query string of every paginated list of the API, declared once. A limit above the maximum is lowered to it
 * rather than refused; `cursor` is for the lists that have keyset paging (the records).
 */
export const pageQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'Must be a whole number' })
    .int({ error: 'Must be a whole number' })
    .min(1, { error: 'Must be at least 1' })
    .optional()
    .describe(`Items per page (default ${PAGE_LIMIT_DEFAULT}, at most ${PAGE_LIMIT_MAX})`),
  offset: z.coerce
    .number({ error: 'Must be a whole number' })
    .int({ error: 'Must be a whole number' })
    .min(0, { error: 'Must be zero or more' })
    .max(10_000_000, { error: 'Too large' })
    .optional()
    .describe('Items to skip (ignored when cursor is given)'),
  cursor: z.string().max(200).optional().describe('Opaque keyset position from a previous Link rel="next"'),
});

/** Lists paged by offset only (users, audit, reports, trash). */
export const offsetPageQuerySchema = pageQuerySchema.omit({ cursor: true });

export type PageQuery = z.infer<typeof pageQuerySchema>;

/** The page size a query asks for, with the default and the maximum applied. */
export function pageLimit(query: { limit?: number }): number {
  return Math.min(query.limit ?? PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX);
}
