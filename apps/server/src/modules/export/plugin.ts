import { Readable } from 'node:stream';
import { z } from 'zod';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE, can, searchFiltersSchema, type RecordDto, type SearchFilters } from '@app/shared';
import { assertRecentStepUp } from '../../plugins/step-up';
import { PRIVATE_CACHE_CONTROL } from '../cache/response-cache';
import { counterStore, RateLimit } from '../users/rate-limiter';
import { EXPORT_COLUMNS, exportRow } from './columns';
import { csvRows } from './csv';
import { fieldFormatResources, registerFieldFormatRoutes } from './field-routes';
import { exportedRecords } from './records-stream';

/** Anonymous exports per address: a whole collection costs the server far more than a page, so few per hour. */
export const ANONYMOUS_EXPORT_LIMIT = { max: 20, windowMs: 60 * 60 * 1000 };

/**
 * `bom=true`: the CSV starts with a UTF-8 byte order mark. Spreadsheets (Excel above all) read a CSV without one in the
 * computer's legacy encoding and garble Amharic; programs that read CSV mostly want it without.
 */
const csvQuery = z.intersection(
  searchFiltersSchema,
  z.object({ bom: z.enum(['true', 'false'], { error: 'Must be true or false' }).optional().describe('Start with a UTF-8 byte order mark, for spreadsheets') }),
);
const UTF8_BOM = '\uFEFF';

const FILTERS_DESCRIPTION =
  'The filters of GET /search (q, category, region, victimizer, killingType, from, to, confirmed). Anonymous exports hold public records only; signed-in readers export what they may read. Streamed newest first, of any size.';

/**
 * Open data: the records as CSV or newline-delimited JSON, streamed with constant memory at any size (no cap), and a
 * Frictionless Data package that describes the CSV's columns. Each row carries its public file URLs and the SHA-256 of
 * the originals, so a downloaded copy can be checked against the evidence.
 */
const exportArea: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = new RateLimit(counterStore(app.redis, `${app.config.RATE_LIMIT_PREFIX}export:`), 'anonymous', ANONYMOUS_EXPORT_LIMIT);
  const context = { publicUrl: app.config.publicUrl };

  app.get(
    `${API_BASE}/export.csv`,
    { schema: { tags: ['export'], summary: 'Records as CSV (columns described by datapackage.json)', description: FILTERS_DESCRIPTION, querystring: csvQuery } },
    async (request, reply) => {
      const { bom, ...filters } = request.query;
      const records = await exportFor(app, request, reply, filters, 'csv');
      const header = (bom === 'true' ? UTF8_BOM : '') + csvRows([EXPORT_COLUMNS.map((column) => column.name)]);
      return reply.send(
        Readable.from(
          (async function* () {
            yield header;
            for await (const batch of records) yield csvRows(batch.map((record) => exportRow(record, context)));
          })(),
        ),
      );
    },
  );

  app.get(
    `${API_BASE}/export.ndjson`,
    { schema: { tags: ['export'], summary: 'Records as newline-delimited JSON, each line a record as the API shows it', description: FILTERS_DESCRIPTION, querystring: searchFiltersSchema } },
    async (request, reply) => {
      const records = await exportFor(app, request, reply, request.query, 'ndjson');
      return reply.send(
        Readable.from(
          (async function* () {
            for await (const batch of records) yield batch.map((record) => `${JSON.stringify(record)}\n`).join('');
          })(),
        ),
      );
    },
  );

  app.get(
    `${API_BASE}/datapackage.json`,
    { schema: { tags: ['export'], summary: 'Frictionless Data package describing the export (columns, types, allowed values)' } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return dataPackage(app);
    },
  );

  registerFieldFormatRoutes(app, exportFor);

  /** Who may export what, the rate limit, and the download's headers; then the records to write. */
  async function exportFor(
    app: FastifyInstance,
    request: FastifyRequest,
    reply: FastifyReply,
    filters: SearchFilters,
    format: 'csv' | 'ndjson',
    name = 'records',
  ): Promise<AsyncGenerator<RecordDto[]>> {
    const actor = request.hasAuthHeader ? await request.getActor() : null;
    if (!actor) await limit.consume(request.ip);
    // An export with private records in it can expose witnesses: a fresh second factor first (decisions.md §4).
    if (can.readPrivate(actor)) assertRecentStepUp(actor!);
    const day = new Date().toISOString().slice(0, 10);
    reply
      .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}-${day}.${format}"`)
      .header('cache-control', actor ? PRIVATE_CACHE_CONTROL : 'public, max-age=60')
      .header('vary', 'Authorization');
    return exportedRecords(app.db, app.media, filters, { includePrivate: can.readPrivate(actor) }, actor);
  }
};

function dataPackage(app: FastifyInstance) {
  const base = `${app.config.publicUrl}${API_BASE}`;
  return {
    // A data package, not a tabular one: the tabular profile requires a table schema of every resource, and the
    // NDJSON's records (nested images and sources) are no table. Each CSV is a tabular data resource with its schema.
    profile: 'data-package',
    name: 'records',
    title: `${app.config.SITE_NAME}: records`,
    description:
      'Records of the killings and displacement of the Amhara people in Ethiopia (victims, massacres, displaced people, orphans, missing and kidnapped people, events, videos, links and articles), as published on the site. Anonymous downloads hold the public records only.',
    homepage: app.config.publicUrl,
    created: new Date().toISOString(),
    resources: [
      {
        profile: 'tabular-data-resource',
        name: 'records',
        path: `${base}/export.csv`,
        format: 'csv',
        mediatype: 'text/csv',
        encoding: 'utf-8',
        dialect: { delimiter: ',', doubleQuote: true, header: true },
        schema: {
          fields: EXPORT_COLUMNS.map(({ name, type, description, values }) => ({
            name,
            type,
            description,
            ...(type === 'boolean' ? { trueValues: ['true'], falseValues: ['false'] } : {}),
            ...(values ? { constraints: { enum: values } } : {}),
          })),
          primaryKey: '_id',
          missingValues: [''],
        },
      },
      ...fieldFormatResources(base),
      {
        profile: 'data-resource',
        name: 'records-ndjson',
        path: `${base}/export.ndjson`,
        format: 'ndjson',
        mediatype: 'application/x-ndjson',
        encoding: 'utf-8',
        description: 'The same records, one JSON object per line, as GET /api/v1.0.0/{category}/{id} shows them',
      },
    ],
  };
}

export default exportArea;
