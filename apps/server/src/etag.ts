/**
 * If-None-Match as RFC 9110 reads it (weak comparison): `*`, or any tag of the list equal to `etag` once a `W/` prefix
 * is set aside on either side. Every conditional GET of the server asks this one function.
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string | undefined): boolean {
  if (!ifNoneMatch || !etag) return false;
  // The common case, a browser sending back the one tag it got, without parsing a list.
  if (ifNoneMatch === etag) return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = bare(etag);
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => bare(tag) === wanted);
}
