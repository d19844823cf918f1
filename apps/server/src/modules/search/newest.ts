import { sql, type SQL } from 'drizzle-orm';
import { SEARCH_LIMIT_DEFAULT } from '@app/shared';
import { preparedSqlRows, rowsOf, type Db } from '../../db';
import { records } from '../../db/schema';
import type { SearchCursor } from './cursor';
import { and, cursorAfter, NEWEST_FIRST, RECORD_COLUMNS, snippetTextOf, type MatchConditions } from './match';
import { snippetsOfHits, type SnippetCache } from './snippet-cache';
import type { SearchInput, SearchLimits, SearchPage } from './types';

/** A hit found, with the text of its snippet. */
interface Found {
  id: string;
  createdAt: string;
  text: string | null;
}

/** A step of the walk: its matches, the last record it read, and how many it read (fewer than asked: the end). */
interface WalkRow {
  hits: Found[] | null;
  last: { id: string; createdAt: string } | null;
  read: number;
}

/**
 * A page of the records matching the conditions, newest first. Where matches are many, the records are read newest
 * first, a step at a time, and tested: a page among thousands of matches is found in the first steps, and no plan
 * depends on PostgreSQL's guess of how many match. `share` is the part of the records read that is expected to match
 * (null: unknown); it sizes the steps, and when matches are too sparse for the steps to find a page, or what the steps
 * leave unfound, the planner is asked for (it intersects the index's lists).
 */
export async function newestPage(
  db: Db,
  conditions: MatchConditions,
  input: SearchInput,
  limits: SearchLimits,
  share: number | null,
  snippets?: SnippetCache,
): Promise<Pick<SearchPage, 'hits' | 'nextCursor'>> {
  const { cursor, limit = SEARCH_LIMIT_DEFAULT } = input;
  const generation = snippets?.current() ?? 0;
  const page = (found: Found[]) => pageOf(found, limit, conditions.q, snippets, generation);
  const want = limit + 1;
  const found: Found[] = [];
  let after: SearchCursor | null = cursor && 'createdAt' in cursor ? cursor : null;
  // Enough records per step to hold the page about one and a half times, when the share is known.
  const step = share === null ? limits.walkStep : Math.max(Math.min(100, limits.walkStep), Math.min(limits.walkStep, Math.ceil((1.5 * want) / Math.max(share, 1e-9))));
  // Walked only when one step is expected to hold the page: reading records to test them costs several times what
  // intersecting the index's lists costs per match, so sparser matches (a phrase with two facets, about 3,000 of a
  // million records: two steps of 5,000 took 150 ms, the planner's way 50) are left to the planner.
  const walk = share === null || (1.5 * want) / Math.max(share, 1e-9) <= limits.walkStep;
  const text = snippetTextOf(conditions);
  for (let i = 0; walk && i < limits.walkSteps && found.length < want; i++) {
    const [row]: WalkRow[] = await preparedSqlRows<WalkRow>(
      db,
      // The filters are tested in records_search_newest_idx, which holds their columns (an index-only scan); only the
      // records they leave are read to test the words. The last position is projected after it is found: a JSON object
      // built for every record read, before the sort kept one, cost more than the rest of the step.
      sql`with c as materialized (
          select ${records.id} as id, ${records.createdAt} as created_at, (${conditions.filters.length ? and(conditions.filters) : sql`true`}) as passed
          from ${records} where ${records.deletedAt} is null and ${cursorAfter(after, RECORD_COLUMNS)}
          order by ${NEWEST_FIRST} limit ${step}
        )
        select
          (select json_agg(json_build_object('id', h.id, 'createdAt', h.created_at, 'text', ${text}) order by h.created_at desc, h.id desc)
            from (${matchedIn(conditions.words, want - found.length)}) h
            join ${records} on ${records.id} = h.id) as hits,
          (select json_build_object('id', l.id, 'createdAt', l.created_at) from (select id, created_at from c order by created_at, id limit 1) l) as last,
          (select count(*)::int from c) as read`,
      'generic',
    );
    found.push(...(row?.hits ?? []));
    // A short step is the end of the records: nothing older is left to find.
    if (!row?.last || row.read < step) return page(found);
    after = { createdAt: row.last.createdAt, id: row.last.id };
  }
  if (found.length < want) found.push(...(await plannedRest(db, conditions, after, want - found.length, text)));
  return page(found);
}

/**
 * The newest `count` records of the step `c` that passed the filters and hold the words. The words are tested record by
 * record (a subquery on the primary key), not by a join: the statement's one plan is made without its words, and with a
 * join it read the whole table to test them (a hash join over a sequential scan: 1.4 s a search at a million records).
 */
function matchedIn(words: SQL | null, count: number): SQL {
  if (!words) return sql`select id, created_at from c where passed order by created_at desc, id desc limit ${count}`;
  return sql`select c.id, c.created_at from c
    where c.passed and (select ${words} from ${records} where ${records.id} = c.id) order by c.created_at desc, c.id desc limit ${count}`;
}

/** The newest `count` matches after `after`, as the planner finds them (through the index, or reading in order). */
function plannedRest(db: Db, conditions: MatchConditions, after: SearchCursor | null, count: number, text: SQL): Promise<Found[]> {
  return rowsOf<Found>(
    db,
    // As text: the position keeps its microseconds whatever the driver makes of a timestamp.
    sql`select ${records.id} as id, ${records.createdAt}::text as "createdAt", ${text} as text from ${records}
      where ${and(conditions.indexed)} and ${cursorAfter(after, RECORD_COLUMNS)}
      order by ${NEWEST_FIRST} limit ${count}`,
  );
}

function pageOf(found: Found[], limit: number, q: string | undefined, snippets: SnippetCache | undefined, generation: number): Pick<SearchPage, 'hits' | 'nextCursor'> {
  const shown = found.slice(0, limit);
  const cut = snippetsOfHits(shown, q, snippets, generation);
  const last = shown.at(-1);
  return {
    hits: shown.map((hit, i) => ({ id: hit.id, snippet: cut[i]! })),
    nextCursor: found.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null,
  };
}
