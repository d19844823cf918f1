import { errorBodySchema, type ErrorBody } from '@app/shared';

/**
 * The one application error. Its body is what the client sees: field errors keyed by field name, or `message`.
 * Anything else thrown becomes a 500 whose details stay in the log.
 */
export class AppError extends Error {
  /** A 5xx the operator need not see one by one (searches refused under load: /metrics counts them). */
  quiet = false;

  constructor(
    public readonly statusCode: number,
    public readonly body: ErrorBody,
    public readonly headers: Record<string, string> = {},
  ) {
    super(body.message ?? Object.values(body)[0] ?? `HTTP ${statusCode}`);
    this.name = 'AppError';
  }
}

/**
 * A client-chosen name made safe as the key of an error body: `__proto__` as a key is lost on the way out (the
 * serialiser treats it as the prototype), leaving an empty body that names nothing, and NUL cannot be stored or shown.
 */
export function errorKey(name: string): string {
  const key = name.replace(/\u0000/g, '');
  return key === '' || key === '__proto__' || key === 'constructor' || key === 'prototype' ? 'message' : key;
}

export const httpError = {
  badRequest: (fields: ErrorBody) => new AppError(400, fields),
  unauthorized: (message = 'Sign in to continue') => new AppError(401, { message }),
  forbidden: (message = 'You are not allowed to do this') => new AppError(403, { message }),
  notFound: (message = 'Not found') => new AppError(404, { message }),
  conflict: (fields: ErrorBody) => new AppError(409, fields),
  tooLarge: (field: string, message: string) => new AppError(413, { [field]: message, message }),
  tooMany: (retryAfterSeconds: number, message = 'Too many attempts, try again later') =>
    new AppError(429, { message }, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) }),
  unavailable: (message = 'Service unavailable') => new AppError(503, { message }),
};

/** The statuses a route may refuse a request with; each answers an ErrorBody (see plugins/errors.ts). */
type RefusalStatus = 400 | 401 | 403 | 404 | 406 | 409 | 410 | 413 | 415 | 429;

/**
 * The response schemas of a route's refusals: the one error body schema under each status given. Every route can
 * answer 400 (a malformed query, path or body; a NUL anywhere in them); a route that reads a body also 413 (too large)
 * and 415 (a type it does not read); a signed-in route 401; a route for some roles or owners 403.
 */
export function refusals<const S extends readonly RefusalStatus[]>(...statuses: S): Record<S[number], typeof errorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorBodySchema])) as Record<S[number], typeof errorBodySchema>;
}
