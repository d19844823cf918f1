import { PUBLIC_CACHE_CONTROL } from '../cache/response-cache';
import { computeRead, type ReadResponse, type ReadTarget, type RecordReadServices } from './reads';

/**
 * Reads as an anonymous visitor gets them, as data ({status, headers, body}), for the areas that build on them (link
 * previews and feeds, modules/seo). The API's own routes send theirs through send-read.ts.
 */
export interface PublicReads {
  read(target: ReadTarget): Promise<ReadResponse>;
}

export function createPublicReads(app: RecordReadServices): PublicReads {
  return {
    async read(target) {
      const response = await computeRead(app, target, null);
      if (response.status === 200) response.headers['cache-control'] = PUBLIC_CACHE_CONTROL;
      return response;
    },
  };
}
