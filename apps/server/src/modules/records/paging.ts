import { isUuid, pageLimit, type PageQuery } from '@app/shared';

/** A position in a newest-first list: the last item seen (createdAt, then id, both descending). */
export interface Cursor {
  createdAt: string;
  id: string;
}

export { isUuid };

/** Opaque to clients: base64url of "createdAt|id". */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`, 'utf8').toString('base64url');
}

/** An instant in UTC to the microsecond, as PostgreSQL stores it (a JavaScript Date keeps milliseconds only). */
const INSTANT_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z$/;

function decodeCursor(value: string): Cursor | null {
  const text = Buffer.from(value, 'base64url').toString('utf8');
  const [createdAt, id, ...rest] = text.split('|');
  if (rest.length || !createdAt || !id || !isUuid(id)) return null;
  // Kept as written: rounded to a Date's milliseconds, the next page would skip the records of the same millisecond.
  if (!INSTANT_RE.test(createdAt) || Number.isNaN(new Date(createdAt).getTime())) return null;
  return { createdAt, id };
}

export { pageQuerySchema, type PageQuery } from '@app/shared';

export interface Page {
  limit: number;
  offset: number;
  cursor: Cursor | null;
}

/** Resolves defaults; `null` when the cursor cannot be read (the caller answers 400). */
export function resolvePage(query: PageQuery): Page | null {
  const limit = pageLimit(query);
  if (query.cursor !== undefined) {
    const cursor = decodeCursor(query.cursor);
    return cursor ? { limit, offset: 0, cursor } : null;
  }
  return { limit, offset: query.offset ?? 0, cursor: null };
}

/**
 * The Link header of a list page. Offset paging gets next and prev; cursor paging gets next (from the last item)
 * and first, since a keyset cannot step backwards without a second index order.
 */
export function linkHeader(
  basePath: string,
  page: Page,
  total: number,
  itemCount: number,
  lastItem: Cursor | null,
  extraQuery: Record<string, string> = {},
): string | null {
  const url = (params: Record<string, string | number>) => {
    const qs = new URLSearchParams({ ...extraQuery, ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) });
    return `<${basePath}?${qs.toString()}>`;
  };
  const links: string[] = [];
  if (page.cursor) {
    if (itemCount === page.limit && lastItem) links.push(`${url({ limit: page.limit, cursor: encodeCursor(lastItem) })}; rel="next"`);
    links.push(`${url({ limit: page.limit, offset: 0 })}; rel="first"`);
  } else {
    if (page.offset + itemCount < total) {
      links.push(`${url({ limit: page.limit, offset: page.offset + page.limit })}; rel="next"`);
    }
    if (page.offset > 0) links.push(`${url({ limit: page.limit, offset: Math.max(0, page.offset - page.limit) })}; rel="prev"`);
  }
  return links.length ? links.join(', ') : null;
}
