import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { fieldErrors } from '@app/shared';
import { AppError, errorKey } from '../errors';
import { DatabaseUnavailableError, isDatabaseUnavailable } from '../db/unavailable';

/**
 * The one error handler: field errors as 400 {field: message}, other client errors as {message}, a database out of
 * reach as 503 with Retry-After, and 500s with no details (they go to the log). A malformed request never produces a 500.
 */
export default fp(
  async (app) => {
    app.setErrorHandler((thrown: FastifyError | AppError | ZodError, request, reply) => {
      // A database that is down or dropped the connection: a 503 to retry, like a storage outage, never a 500.
      const error = !(thrown instanceof AppError) && isDatabaseUnavailable(thrown) ? new DatabaseUnavailableError(thrown) : thrown;
      if (error instanceof AppError) {
        // The server's own failures (storage, a service away) are the operator's to see, with the request's id.
        if (error.statusCode >= 500 && !error.quiet) request.log.error({ err: error.cause ?? error }, error.message);
        return reply.status(error.statusCode).headers(error.headers).send(error.body);
      }
      if (error instanceof ZodError) {
        return reply.status(400).send(fieldErrors(error));
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const body: Record<string, string> = {};
        for (const issue of error.validation) {
          const key = issue.instancePath.split('/').filter(Boolean)[0] ?? String(issue.params?.issue ? (issue.params.issue as { path?: unknown[] }).path?.[0] ?? 'message' : 'message');
          const safe = errorKey(String(key));
          if (!Object.hasOwn(body, safe)) body[safe] = issue.message ?? 'Invalid value';
        }
        return reply.status(400).send(body);
      }
      const fe = error as FastifyError;
      const status = fe.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        const message =
          fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? fe.message
            : fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
              ? 'The request body is not valid JSON'
              : fe.message;
        return reply.status(status).send({ message });
      }
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ message: 'Something went wrong on our side; nothing was changed' });
    });
  },
  { name: 'errors' },
);
