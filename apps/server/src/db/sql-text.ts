import { Column, Name, SQL, StringChunk, Table } from 'drizzle-orm';

/** What of drizzle's PostgreSQL dialect the text is built with. */
export interface SqlDialect {
  sqlToQuery(query: SQL): { sql: string; params: unknown[] };
  escapeName(name: string): string;
}

/** Thrown by `compile` at a chunk it does not build itself: the dialect then builds the whole statement. */
const NOT_HANDLED = Symbol('not handled here');

/** The text of each table and column met, as the dialect writes it (the same objects come back in every statement). */
const namesOf = new WeakMap<object, string>();

/**
 * A statement's text and values, exactly as the dialect's sqlToQuery gives them, for the chunks the search's
 * statements are made of: text, nested statements, values, identifiers, tables and columns. The dialect builds a
 * result object (and arrays) per chunk and merges them, plus a tracing span per statement; for a search's statements,
 * hundreds of chunks each, that was about 5 % of a unique search's CPU in the server. Any other chunk (a Param with
 * its encoder, a placeholder, a subquery, an inlined statement) leaves the whole statement to the dialect.
 */
export function sqlText(dialect: SqlDialect, query: SQL): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  try {
    return { sql: compile(dialect, query, params), params };
  } catch (error) {
    if (error !== NOT_HANDLED) throw error;
    const { sql, params: values } = dialect.sqlToQuery(query);
    return { sql, params: values };
  }
}

function compile(dialect: SqlDialect, query: SQL, params: unknown[]): string {
  if ((query as unknown as { shouldInlineParams: boolean }).shouldInlineParams) throw NOT_HANDLED;
  let text = '';
  for (const chunk of query.queryChunks as unknown[]) {
    if (chunk instanceof StringChunk) text += chunk.value.join('');
    else if (chunk instanceof SQL) text += compile(dialect, chunk, params);
    else if (chunk === undefined) continue;
    else if (chunk === null || typeof chunk === 'string' || typeof chunk === 'number' || typeof chunk === 'boolean' || typeof chunk === 'bigint') {
      params.push(chunk);
      text += `$${params.length}`;
    } else if (chunk instanceof Name) text += dialect.escapeName(chunk.value);
    else if (chunk instanceof Table || chunk instanceof Column) text += nameOf(dialect, chunk);
    else throw NOT_HANDLED;
  }
  return text;
}

function nameOf(dialect: SqlDialect, chunk: Table | Column): string {
  let name = namesOf.get(chunk);
  if (name === undefined) namesOf.set(chunk, (name = dialect.sqlToQuery(new SQL([chunk])).sql));
  return name;
}
