// Uncached reads at one size: the SQL the API runs (timed in the db task) and the same reads over HTTP, past the
// response cache two ways (a unique URL, and an Authorization header).
import { get, timeUncached } from './http.mjs';
import { fmt, table } from './stats.mjs';

const API = '/api/v1.0.0';

function nextLink(linkHeader) {
  const match = /<([^>]+)>;\s*rel="next"/.exec(linkHeader ?? '');
  return match ? match[1] : null;
}

export async function runQueries({ site, sql, runs, authorization }) {
  const deep = sql.deepOffset;
  const targets = {
    listPage1: `${API}/victims?limit=50`,
    listDeepOffset: `${API}/victims?limit=50&offset=${deep}`,
    count: `${API}/victims?limit=1`,
    detail: sql.detailId ? `${API}/victims/${sql.detailId}` : null,
    newsPage1: `${API}/news?limit=50`,
    galleryPage1: `${API}/images?limit=50`,
  };
  // Keyset paging, as a client finds it: the page before the deep one names where the next starts (X-Next-Cursor or
  // a Link rel="next" carrying a cursor).
  const cursor = { supported: false, source: null };
  const before = await get(`${site.url}${API}/victims?limit=50&offset=${Math.max(0, deep - 50)}`);
  const headerCursor = before.headers['x-next-cursor'];
  if (headerCursor) {
    cursor.supported = true;
    cursor.source = 'X-Next-Cursor';
    targets.listDeepCursor = `${API}/victims?limit=50&cursor=${encodeURIComponent(headerCursor)}`;
    const onCursorPage = await get(`${site.url}${targets.listDeepCursor}`);
    const next = nextLink(onCursorPage.headers.link);
    cursor.linkNextHasCursor = Boolean(next && next.includes('cursor='));
    cursor.status = onCursorPage.status;
  } else if (nextLink(before.headers.link)?.includes('cursor=')) {
    cursor.supported = true;
    cursor.source = 'Link rel=next';
    targets.listDeepCursor = nextLink(before.headers.link);
  }

  const httpMiss = {};
  const httpSignedIn = {};
  for (const [name, target] of Object.entries(targets)) {
    if (!target) continue;
    const miss = await timeUncached(`${site.url}${target}`, { runs, mode: 'bust' });
    if (miss) httpMiss[name] = miss;
    httpSignedIn[name] = await timeUncached(`${site.url}${target}`, { runs, mode: 'auth', authorization });
  }

  const names = [...new Set([...Object.keys(sql.results), ...Object.keys(httpSignedIn)])];
  const sqlName = { count: 'countCategory', listDeepCursor: 'listDeepCursor' };
  console.log(`\nUncached reads, median ms of up to ${runs} runs (deep page: offset ${fmt.n(deep)} of victims)`);
  console.log(
    table(
      ['read', 'SQL', 'HTTP miss', 'HTTP signed-in', 'status', 'bytes (gzip)'],
      names.map((name) => [
        name,
        fmt.ms(sql.results[sqlName[name] ?? name]?.medianMs),
        fmt.ms(httpMiss[name]?.medianMs),
        fmt.ms(httpSignedIn[name]?.medianMs),
        httpSignedIn[name] ? `${httpMiss[name]?.status ?? '-'}/${httpSignedIn[name].status}` : null,
        fmt.n(httpMiss[name]?.bytes ?? httpSignedIn[name]?.bytes),
      ]),
    ),
  );
  console.log(
    `Keyset cursor: ${cursor.supported ? `yes (from ${cursor.source}${cursor.linkNextHasCursor ? '; cursor pages link rel=next with a cursor' : ''})` : 'not offered by the API'}`,
  );
  return { deepOffset: deep, sql: sql.results, httpMiss, httpSignedIn, cursor };
}
