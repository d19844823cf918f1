import { SEARCH_LIMIT_DEFAULT, can, type SearchQuery } from '@app/shared';
import { JoinedParts } from '../../compression';
import { RecordFragments } from '../records/fragments';
import { answer, etagOf, type ReadResponse, type Reader, type RecordReadServices } from '../records/reads';
import { recordsAsFragments } from '../records/serialise';
import { decodeSearchCursor, encodeSearchCursor } from './cursor';
import type { SearchKnowledge } from './knowledge';
import { searchRecords, SEARCH_LIMITS } from './query';

/** The search's parameters as they decide the answer: validated, sorted, without repeats or default values. */
export function normaliseSearchQuery(query: SearchQuery): SearchQuery {
  return {
    ...query,
    // Words are found alike however they are spaced, so spacing makes no entry of its own.
    q: query.q?.replace(/\s+/g, ' '),
    limit: query.limit === SEARCH_LIMIT_DEFAULT ? undefined : query.limit,
  };
}

/**
 * The search's answer, serialised: each hit is a record's JSON as every read shows it (the records' kept fragments,
 * so a page of hits is not serialised again) with its snippet, then the facet counts and the next page's cursor.
 */
export async function computeSearch(app: RecordReadServices, query: SearchQuery, reader: Reader, knowledge?: SearchKnowledge): Promise<ReadResponse> {
  const { cursor: cursorText, limit, ...filters } = query;
  let cursor = null;
  if (cursorText !== undefined) {
    cursor = decodeSearchCursor(cursorText, Boolean(filters.q));
    if (!cursor) return answer(400, {}, JSON.stringify({ cursor: 'This cursor is not valid' }));
  }
  const generation = app.recordFragments.currentGeneration();
  const found = await searchRecords(app.db, { filters, cursor, limit: limit ?? SEARCH_LIMIT_DEFAULT }, { includePrivate: can.readPrivate(reader) }, SEARCH_LIMITS, knowledge);
  const fragments = await recordsAsFragments(app, found.hits.map((hit) => hit.id), generation, [], reader);
  const signedIn = reader !== null;
  const parts: Buffer[] = [Buffer.from(`{"total":${found.total},"estimated":${found.estimated},"order":"${found.order}","hits":[`)];
  // What the ETag hashes: the parts, but a record's kept hash for the record's bytes (as list pages do), so a page's
  // 40 KB of records are not hashed again for every search.
  const hashed: Buffer[] = [parts[0]!];
  let first = true;
  found.hits.forEach((hit, i) => {
    const fragment = fragments[i];
    // Trashed between the search and the read of its records: left out, as the next search will.
    if (!fragment || fragment.trashed) return;
    const before = Buffer.from(`${first ? '' : ','}{"record":`);
    const after = Buffer.from(`,"snippet":${JSON.stringify(hit.snippet)}}`);
    parts.push(before, ...RecordFragments.partsOf(fragment, signedIn), after);
    hashed.push(before, ...RecordFragments.hashesOf(fragment, signedIn), after);
    first = false;
  });
  const end = Buffer.from(`],"facets":${JSON.stringify(found.facets)},"nextCursor":${JSON.stringify(found.nextCursor ? encodeSearchCursor(found.nextCursor) : null)}}`);
  parts.push(end);
  hashed.push(end);
  return answer(200, { etag: etagOf(hashed, {}) }, new JoinedParts(parts));
}
