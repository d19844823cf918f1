import { Readable } from 'node:stream';
import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE, type CategorySlug, type RecordDto, type SearchFilters } from '@app/shared';
import { csvRows } from './csv';
import { namedPeopleCounter } from './named-people';
import { fieldRow, hxlRow, INCIDENT_CATEGORIES, INCIDENT_COLUMNS, PEOPLE_CATEGORIES, PEOPLE_COLUMNS, type FieldColumn } from './field-columns';

/** The export area's own check of who may export what (rate limit, headers), then the records. */
type ExportFor = (
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  filters: SearchFilters,
  format: 'csv' | 'ndjson',
  name?: string,
) => Promise<AsyncGenerator<RecordDto[]>>;

const yes = z.enum(['1', 'true', '0', 'false'], { error: 'Must be 1, true, 0 or false' }).optional();
const fieldQuery = z.object({
  hxl: yes.describe('Add the HXL hashtag row under the header (as HDX reads it)'),
  bom: yes.describe('Start with a UTF-8 byte order mark, for spreadsheets'),
});
const on = (value: string | undefined) => value === '1' || value === 'true';

interface FieldFile {
  name: 'incidents' | 'people';
  categories: CategorySlug[];
  columns: readonly FieldColumn[];
  summary: string;
  primaryKey: string;
}

const FILES: FieldFile[] = [
  {
    name: 'incidents',
    categories: INCIDENT_CATEGORIES,
    columns: INCIDENT_COLUMNS,
    summary: "Massacres and events as CSV with ACLED's column names, one row per incident",
    primaryKey: 'event_id',
  },
  {
    name: 'people',
    categories: PEOPLE_CATEGORIES,
    columns: PEOPLE_COLUMNS,
    summary: 'Victims, missing people, orphans and displacements as CSV, one row per person, with the incident each belongs to',
    primaryKey: 'person_id',
  },
];

/** GET /export/incidents.csv and /export/people.csv: the field's formats (ACLED's columns, HXL), newest first. */
export function registerFieldFormatRoutes(fastify: FastifyInstance, exportFor: ExportFor): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const context = { publicUrl: app.config.publicUrl };
  for (const file of FILES) {
    app.get(
      `${API_BASE}/export/${file.name}.csv`,
      {
        schema: {
          tags: ['export'],
          summary: file.summary,
          description:
            'Columns described in datapackage.json. Anonymous exports hold public records only, signed-in readers what they may read; withheld witness sources never. `hxl=1` adds the HXL hashtag row.',
          querystring: fieldQuery,
        },
      },
      async (request, reply) => {
        const records = await exportFor(app, request, reply, { category: file.categories } as SearchFilters, 'csv', file.name);
        const countPeople = file.name === 'incidents' ? await namedPeopleCounter(app, request) : undefined;
        const header = (on(request.query.bom) ? '\uFEFF' : '') + csvRows([file.columns.map((c) => c.name), ...(on(request.query.hxl) ? [hxlRow(file.columns)] : [])]);
        return reply.send(
          Readable.from(
            (async function* () {
              yield header;
              for await (const batch of records) {
                const batchContext = countPeople ? { ...context, namedPeople: await countPeople(batch.map((record) => record._id)) } : context;
                yield csvRows(batch.map((record) => fieldRow(file.columns, record, batchContext)));
              }
            })(),
          ),
        );
      },
    );
  }
}

/** The Frictionless descriptions of the two files, with people.incident_id -> incidents.event_id. */
export function fieldFormatResources(base: string) {
  return FILES.map((file) => ({
    profile: 'tabular-data-resource',
    name: file.name,
    path: `${base}/export/${file.name}.csv`,
    format: 'csv',
    mediatype: 'text/csv',
    encoding: 'utf-8',
    dialect: { delimiter: ',', doubleQuote: true, header: true },
    schema: {
      fields: file.columns.map(({ name, type, description, hxl, standard }) => ({ name, type, description: `${description} [${standard}]`, ...(hxl ? { hxl } : {}) })),
      primaryKey: file.primaryKey,
      ...(file.name === 'people' ? { foreignKeys: [{ fields: 'incident_id', reference: { resource: 'incidents', fields: 'event_id' } }] } : {}),
      missingValues: [''],
    },
  }));
}
