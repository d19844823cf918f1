import { CATEGORY_LIST, MERGED_PARAM, isUuid, paths } from '@app/shared';
import type { PublicReads } from '../records/public-reads';
import type { PageRedirect } from '../web/shell';

/**
 * The page of a person merged into another (the same person recorded twice) answers a permanent redirect to the kept
 * record's page, as its API address does (records/reads.ts): links shared before the merge keep working, and search
 * engines move to the kept page (its canonical address has no `?merged=1`, which makes the page say why the reader is
 * there). Pages are read as an anonymous visitor (they carry no credentials), so only a kept
 * record the public may read is named; any other merged address is answered as before.
 */
export function mergedPageRedirect(publicReads: PublicReads): PageRedirect {
  const merging = new Map(CATEGORY_LIST.filter((c) => c.checksDuplicates).map((c) => [c.route, c.slug]));
  return async (pathname) => {
    const [, route, id] = /^(\/[^/]+)\/([^/]+)\/?$/.exec(pathname) ?? [];
    const category = route ? merging.get(route) : undefined;
    if (!category || !id || !isUuid(id)) return null;
    const read = await publicReads.read({ kind: 'one', category, id: id.toLowerCase() });
    if (read.status !== 301) return null;
    return `${paths.detail(category, (read.body as { mergedInto: string }).mergedInto)}?${MERGED_PARAM}=1`;
  };
}
