import fp from 'fastify-plugin';
import { errorKey, httpError } from '../errors';

export const NUL_MESSAGE = 'Must not contain a NUL character';

/**
 * The name of the top-level field of `value` (the key a field error is given under) whose string or key holds
 * U+0000 somewhere inside it, '' when `value` itself is such a string, or null when there is none.
 */
function fieldWithNul(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? '' : null;
  if (typeof value !== 'object' || value === null || depth > 64) return null;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000') || fieldWithNul(inner, depth + 1) !== null) return depth === 0 ? errorKey(key) : key;
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000, so a NUL that reached a query failed the request with a 500. JSON bodies, query
 * strings and path parameters are checked here for every route; multipart fields where they are read (records/body.ts).
 */
export default fp(
  async (app) => {
    app.addHook('preValidation', async (request) => {
      for (const part of [request.params, request.query, request.body]) {
        const field = fieldWithNul(part);
        if (field !== null) throw httpError.badRequest({ [errorKey(field)]: NUL_MESSAGE });
      }
    });
  },
  { name: 'input-guard' },
);
