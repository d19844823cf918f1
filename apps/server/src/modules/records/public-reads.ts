import type { FastifyInstance } from 'fastify';
import { PUBLIC_CACHE_CONTROL } from '../cache/response-cache';
import { computeRead, type ReadResponse, type ReadTarget } from './reads';

export type ChangeListener = (change: { category: string | null }) => void;

/**
 * The ONE entry point of anonymous public reads. Everything an anonymous visitor can read goes through `read`,
 * which returns plain {status, headers, body}, so a response cache can wrap it without touching the routes.
 * `changed` is called after every committed write; a cache subscribes with `onChange` to drop what it holds.
 * Signed-in requests never come here (see routes: request.hasAuthHeader).
 */
export interface PublicReads {
  read(target: ReadTarget): Promise<ReadResponse>;
  onChange(listener: ChangeListener): void;
  changed(category: string | null): void;
}

export function createPublicReads(app: FastifyInstance): PublicReads {
  const listeners = new Set<ChangeListener>();
  return {
    async read(target) {
      const response = await computeRead(app, target, false);
      if (response.status === 200) response.headers['cache-control'] = PUBLIC_CACHE_CONTROL;
      return response;
    },
    onChange(listener) {
      listeners.add(listener);
    },
    changed(category) {
      for (const listener of listeners) {
        try {
          listener({ category });
        } catch (err) {
          app.log.error({ err }, 'public reads: change listener failed');
        }
      }
    },
  };
}
