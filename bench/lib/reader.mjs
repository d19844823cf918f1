// A signed-in reader for the bench's signed-in path: a super account (labelled as the bench's, on the bench's own
// throw-away data) created through the server's database layer, then signed in through the site's API like a browser.
import { dbTask } from './data.mjs';

export const BENCH_READER = { email: 'bench-reader@example.org', password: 'bench reader, not a real account' };

/** The Authorization header value of a fresh session on `site`. */
export async function signedInReader({ site, dataDir, databaseUrl }) {
  await dbTask({ action: 'account', dataDir, databaseUrl, ...BENCH_READER });
  const res = await fetch(`${site.url}/api/users/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_READER),
  });
  const body = await res.json().catch(() => ({}));
  if (res.status !== 200 || typeof body.token !== 'string') throw new Error(`the bench reader could not sign in: ${res.status} ${JSON.stringify(body)}`);
  return `Bearer ${body.token}`;
}
