import { isUuid } from '../records/paging';

/**
 * A position in search results: the last hit seen. With words, results go by rank (then id); without, newest first
 * (createdAt, then id). Values are kept as PostgreSQL wrote them (a real's shortest spelling, a timestamp with its
 * microseconds), so comparing the next page against them loses nothing to JavaScript's numbers and dates.
 */
export type SearchCursor = { rank: string; id: string } | { createdAt: string; id: string };

/** Opaque to clients: base64url of its JSON. */
export function encodeSearchCursor(cursor: SearchCursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

/**
 * The cursor, or null when it is not one of ours or not for this kind of search: a rank needs words; a date serves
 * searches without words and those with too many matches to rank.
 */
export function decodeSearchCursor(value: string, withWords: boolean): SearchCursor | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const { id, rank, createdAt } = parsed as Record<string, unknown>;
  if (typeof id !== 'string' || !isUuid(id)) return null;
  if (rank !== undefined) {
    return withWords && typeof rank === 'string' && Number.isFinite(Number(rank)) && rank.trim() !== '' ? { rank, id } : null;
  }
  return typeof createdAt === 'string' && !Number.isNaN(Date.parse(createdAt)) ? { createdAt, id } : null;
}
