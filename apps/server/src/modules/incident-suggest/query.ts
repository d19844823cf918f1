import { sql, type SQL } from 'drizzle-orm';
import { INCIDENT_CATEGORIES, typedPeriod, typedWords, type IncidentSuggestion, type SearchFilters } from '@app/shared';
import { preparedSqlRows, type Db } from '../../db';
import { records } from '../../db/schema';
import { filterConditions, searchColumns, type Visibility } from '../collection/filters';
import { and } from '../search/match';

/**
 * The incidents a partly typed text names (GET /incidents/suggest). Each typed word is a prefix query (`word:*`) of the
 * full-text index restricted to weights A and B, which hold the title (A) and the case number and place fields (B): the
 * GIN index answers it, so it stays fast however many records there are. A typed date also matches the incident date
 * in that period (the date index), and a case number its start as typed (records_case_num_prefix_idx). Who may read
 * what: filterConditions, as every read of the collection.
 */
export function suggestConditions(q: string, visibility: Visibility): SQL[] | null {
  const text = q.trim();
  const words = typedWords(text);
  const period = typedPeriod(text);
  if (!text) return null;
  const filters: Omit<SearchFilters, 'q'> = { category: [...INCIDENT_CATEGORIES], region: undefined, victimizer: undefined, killingType: undefined };
  const where = filterConditions(filters, visibility);
  // Quoted lexemes of letters and digits only: nothing typed can be read as tsquery syntax.
  const prefixes = words.map((word) => `'${word}':*AB`).join(' & ');
  const either: SQL[] = [];
  // The parser reads a word by its context: typed alone, "85e4af" is the number 85e4 then "af", while the record's
  // "ACCESS-85E4AFNG" holds "85e4afng". Such words mix digits and letters; for them the words as typed (a plain cast,
  // no parser) are matched as well as its reading. Others read alike both ways, and the second look-up would only
  // double the index work (2.6 -> 3.8 ms on 200k vectors).
  const parserMaySplit = words.some((word) => /\p{N}/u.test(word) && /\p{L}/u.test(word));
  const query = parserMaySplit ? sql`(to_tsquery('simple', ${prefixes}) || ${prefixes}::tsquery)` : sql`to_tsquery('simple', ${prefixes})`;
  if (words.length) either.push(sql`${searchColumns.vector} @@ ${query}`);
  // The parser splits a case number unlike the typed text ("QZ-4711" holds "-4711"): its start is matched as typed too.
  either.push(sql`lower(${records.caseNum}) like ${`${escapeLike(text.toLowerCase())}%`}`);
  if (period) {
    either.push(sql`(${searchColumns.date} >= ${`${period.from}T00:00:00Z`}::timestamptz and ${searchColumns.date} < (${`${period.to}T00:00:00Z`}::timestamptz + interval '1 day'))`);
  }
  return [...where, sql`(${sql.join(either, sql` or `)})`];
}

/** `text` matched literally by LIKE: its wildcards and the escape character escaped (LIKE's default escape is \). */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** At most `limit` incidents matching `q` that the reader may read, newest incident date first. */
export async function suggestIncidents(db: Db, q: string, limit: number, visibility: Visibility): Promise<IncidentSuggestion[]> {
  const where = suggestConditions(q, visibility);
  if (!where) return [];
  return preparedSqlRows<IncidentSuggestion>(
    db,
    sql`select ${records.id} as id, ${records.category} as category, ${records.title} as title,
        to_char(${searchColumns.date} at time zone 'UTC', 'YYYY-MM-DD') as date,
        nullif(btrim(${records.caseNum}), '') as "caseNum",
        nullif(concat_ws(', ', nullif(btrim(${records.location}), ''), nullif(btrim(${records.city}), ''),
          nullif(btrim(${records.woreda}), ''), nullif(btrim(${records.zone}), '')), '') as place,
        ${records.region} as region
      from ${records}
      where ${and(where)}
      order by ${searchColumns.date} desc nulls last, ${records.createdAt} desc, ${records.id} desc
      limit ${limit}`,
  );
}
