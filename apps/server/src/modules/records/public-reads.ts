import { PUBLIC_CACHE_CONTROL } from '../cache/response-cache';
import { computeRead, type ReadResponse, type ReadTarget, type RecordReadServices } from './reads';

/**
 * The ONE entry point of anonymous public reads. Everything an anonymous visitor can read goes through `read`,
 * which returns plain {status, headers, body}, so a response cache can wrap it without touching the routes.
 * Signed-in requests never come here (see routes: request.hasAuthHeader).
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
