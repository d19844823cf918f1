// A signed-in reader for the bench's signed-in path: a super account (labelled as the bench's, on the bench's own
// throw-away data) created through the server's database layer, then signed in through the site's API like a browser.
import { dbTask } from './data.mjs';
import { fetchCall, staffSignIn } from './staff-sign-in.mjs';

export const BENCH_READER = { email: 'bench-reader@example.org', password: 'bench reader, not a real account' };

/** The Authorization header value of a fresh session on `site`. */
export async function signedInReader({ site, dataDir, databaseUrl }) {
  await dbTask({ action: 'account', dataDir, databaseUrl, ...BENCH_READER });
  return `Bearer ${await staffSignIn(fetchCall(site.url), BENCH_READER.email, BENCH_READER.password)}`;
}
