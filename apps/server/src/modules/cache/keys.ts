import type { FastifyRequest } from 'fastify';

export interface CacheKeyOptions {
  /**
   * The query parameters that change the answer. Without it, those of the route's validated query (its schema drops
   * the parameters it does not know); pages, which have no schema, name theirs.
   */
  params?: readonly string[];
  /** The validated parameters, for a route that validates its query itself. */
  query?: Record<string, unknown>;
}

/**
 * The key of a public answer: the path and the parameters that change it, sorted, with their validated values. A
 * request with parameters added to miss the cache (`?_b=<random>`), reordered, or spelled otherwise (`limit=012`)
 * finds the same entry, so query strings can neither fill the cache nor get past it.
 */
export function cacheKey(request: FastifyRequest, options: CacheKeyOptions = {}): string {
  const pathname = request.url.split('?', 1)[0] ?? '/';
  const query = options.query ?? ((request.query ?? {}) as Record<string, unknown>);
  const names = (options.params ?? Object.keys(query)).filter((name) => query[name] !== undefined).sort();
  if (!names.length) return pathname;
  const pair = (name: string, raw: unknown) => {
    const value = String(raw);
    // A bare flag (`?front`) keeps its spelling, so the key of a plain request is its own URL (answered by the first hook).
    return value === '' ? encodeURIComponent(name) : `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  };
  // A repeated parameter (`?region=a&region=b`, validated into a sorted array) is written as the URL repeats it.
  const pairs = names.flatMap((name) => {
    const value = query[name];
    return Array.isArray(value) ? value.map((one) => pair(name, one)) : [pair(name, value)];
  });
  return `${pathname}?${pairs.join('&')}`;
}
