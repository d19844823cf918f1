import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { API_VERSION } from '@app/shared';

/**
 * The OpenAPI document, generated from the same zod schemas the routes use. Registered before the areas' routes so
 * its onRoute hook sees them all: JSON at /api/docs/json, a readable page at /api/docs. Not encapsulated: in a child
 * context that hook would see none of the other areas' routes.
 */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: `${app.config.SITE_NAME} API`,
          version: API_VERSION,
          description:
            'Records of every category under /api/v1.0.0, driven by one category registry. Lists answer JSON arrays; ' +
            'the total is in X-Total-Count and next/prev pages in Link. Errors are JSON objects keyed by field name, ' +
            'or {message}.',
        },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
      },
      transform: jsonSchemaTransform,
      transformObject: jsonSchemaTransformObject,
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'docs', dependencies: ['db'] },
);
