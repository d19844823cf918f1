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
 * How the matches are spread, as the search knows beforehand (knowledge.ts): the share of the records they are (at
 * least), the share the filters leave (the records whose words a walk tests), and the records in the table.
 */
export interface Density {
  share: number;
  filtered: number;
  records: number;
}

/**
 * What each way of finding a page costs PostgreSQL, in microseconds, as measured at a million records
 * (docs/performance.md): reading a record's entry newest first with the filters tested in the index; testing the
 * words of a record the filters leave (a lookup by primary key); and, the planner's way, finding a match through the
 * full-text index and reading it to sort it (all of them are read, whatever the page).
 */
const COST_US = { entryRead: 0.3, wordsTested: 16, matchRead: 13 };

/**
 * A page of the records matching the conditions, newest first. Where matches are many, the records are read newest
 * first, a step at a time, and tested: a page among thousands of matches is found in the first steps, and no plan
 * depends on PostgreSQL's guess of how many match. `density` (null: unknown) sizes the steps; the records are walked
 * when that is expected to cost less than the planner's way (it intersects the index's lists, then reads every match),
 * and what the steps leave unfound is asked of the planner.
 */
export async function newestPage(
  db: Db,
  conditions: MatchConditions,
  input: SearchInput,
  limits: SearchLimits,
  density: Density | null,
  snippets?: SnippetCache,
): Promise<Pick<SearchPage, 'hits' | 'nextCursor'>> {
  const { cursor, limit = SEARCH_LIMIT_DEFAULT } = input;
  const generation = snippets?.current() ?? 0;
  const page = (found: Found[]) => pageOf(found, limit, conditions.q, snippets, generation);
  const want = limit + 1;
  const found: Found[] = [];
  let after: SearchCursor | null = cursor && 'createdAt' in cursor ? cursor : null;
  const walk = walkPlan(want, density, conditions.words !== null, limits);
  const text = snippetTextOf(conditions);
  for (let i = 0; walk && i < walk.steps && found.length < want; i++) {
    const [row]: WalkRow[] = await preparedSqlRows<WalkRow>(
      db,
      // The filters are tested in records_search_newest_idx, which holds their columns (an index-only scan); only the
      // records they leave are read to test the words. The last position is projected after it is found: a JSON object
      // built for every record read, before the sort kept one, cost more than the rest of the step.
      sql`with c as materialized (
          select ${records.id} as id, ${records.createdAt} as created_at, (${conditions.filters.length ? and(conditions.filters) : sql`true`}) as passed
          from ${records} where ${records.deletedAt} is null and ${cursorAfter(after, RECORD_COLUMNS)}
          order by ${NEWEST_FIRST} limit ${walk.step}
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
    if (!row?.last || row.read < walk.step) return page(found);
    after = { createdAt: row.last.createdAt, id: row.last.id };
  }
  if (found.length < want) found.push(...(await plannedRest(db, conditions, after, want - found.length, text)));
  return page(found);
}

/**
 * How to walk the records newest first to find `want` matches, or null to leave them to the planner: at most walkStep x
 * walkSteps records, with the density known in steps that hold the page about one and a half times (its share is a
 * lower bound), and only when that costs less than the planner's way; unknown, in steps of walkStep.
 */
export function walkPlan(want: number, density: Density | null, words: boolean, limits: SearchLimits): { step: number; steps: number } | null {
  if (!density) return { step: limits.walkStep, steps: limits.walkSteps };
  const most = limits.walkStep * limits.walkSteps;
  const needed = Math.ceil((1.5 * want) / Math.max(density.share, 1e-9));
  if (needed > most || walkCost(needed, density, words) > plannerCost(density)) return null;
  const step = Math.max(Math.min(100, limits.walkStep), needed);
  return { step, steps: Math.max(1, Math.min(limits.walkSteps, Math.floor(most / step))) };
}

/**
 * A walk of `records` newest first: each entry read in the index, and the words tested in the records the filters
 * leave. A phrase with two facets at a million records (3,000 matches): a step of 10,500 took 6 ms, the planner 40.
 */
function walkCost(records: number, density: Density, words: boolean): number {
  return records * (COST_US.entryRead + (words ? density.filtered * COST_US.wordsTested : 0));
}

/** The planner's way: every match found through the index and read (a word in 2,000 of a million records: 26 ms). */
function plannerCost(density: Density): number {
  return density.share * density.records * COST_US.matchRead;
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
