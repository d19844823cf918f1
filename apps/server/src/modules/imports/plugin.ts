import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  API_BASE,
  TOTAL_COUNT_HEADER,
  can,
  getCategory,
  importCheckSchema,
  importCommitSchema,
  importMappingSchema,
  importProblemRowSchema,
  importProgressSchema,
  savedMappingSchema,
  saveMappingBodySchema,
  type Actor,
  type CategoryDef,
  type ImportMapping,
} from '@app/shared';
import { errorKey, httpError, refusals } from '../../errors';
import { PRIVATE_CACHE_CONTROL } from '../cache/response-cache';
import { csvRows } from '../export/csv';
import { asClientError } from '../records/body';
import { IMPORT_JOB, runImport, type ImportJobContext } from './job';
import { IMPORT_MAX_MB, ImportService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    imports: ImportService;
    /** The commit job's context (tests stop a job mid-way through `afterProgress`). */
    importJobs: ImportJobContext;
  }
}

const idParams = z.object({ id: z.string().describe('Import id (uuid)') });
const pageQuery = z.object({
  limit: z.coerce.number({ error: 'Must be a whole number from 1 to 500' }).int().min(1, { error: 'Must be a whole number from 1 to 500' }).max(500, { error: 'Must be a whole number from 1 to 500' }).default(50),
  offset: z.coerce.number({ error: 'Must be a whole number' }).int().min(0, { error: 'Must be zero or more' }).default(0),
});
const requireId = (id: string) => {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw httpError.notFound();
  return id.toLowerCase();
};

async function importer(request: FastifyRequest): Promise<Actor> {
  const actor = await request.getActor();
  if (!actor) throw httpError.unauthorized();
  if (!can.create(actor)) throw httpError.forbidden('Your account cannot add records yet');
  return actor;
}

/** The multipart body of a check: the file streamed to the data folder as it comes, the text fields collected. */
async function readUpload(app: FastifyInstance, request: FastifyRequest) {
  if (!request.isMultipart()) throw httpError.badRequest({ file: 'Send the file as multipart form data, in the field "file"' });
  const fields: Record<string, string> = {};
  let received: { file: string; name: string } | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: IMPORT_MAX_MB * 1024 * 1024, files: 1 } })) {
      if (part.type === 'field') {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value ?? '');
        continue;
      }
      if (part.fieldname !== 'file' || received) {
        part.file.resume();
        throw httpError.badRequest({ [errorKey(part.fieldname)]: 'Send one file, in the field "file"' });
      }
      received = { file: await app.imports.receive(part.file), name: part.filename || 'upload' };
    }
  } catch (err) {
    if (received) await rm(received.file, { force: true });
    throw asClientError(err);
  }
  return { fields, received };
}

function parseUploadFields(fields: Record<string, string>): { error: Record<string, string> } | { category: CategoryDef; mapping: ImportMapping | undefined } {
  const category = getCategory(fields.category ?? '');
  if (!category) return { error: { category: 'Choose the category the rows are records of' } };
  let mapping: ImportMapping | undefined;
  if (fields.mapping?.trim()) {
    let json: unknown;
    try {
      json = JSON.parse(fields.mapping);
    } catch {
      return { error: { mapping: 'Must be JSON: {"field": {"column": "header"}}' } };
    }
    const parsed = importMappingSchema.safeParse(json);
    if (!parsed.success) return { error: { mapping: `Must map field names to {"column": "..."} or {"value": "..."}: ${parsed.error.issues[0]?.message ?? ''}` } };
    const unknownField = Object.keys(parsed.data).find((name) => !category.fields.some((f) => f.name === name));
    if (unknownField) return { error: { mapping: `${category.slug} records have no field "${unknownField}"` } };
    mapping = parsed.data;
  }
  return { category, mapping };
}

/** Imports of spreadsheets and form exports (docs/import.md). */
export default fp(
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = new ImportService({ db: app.db, jobs: app.jobs, audit: app.audit, dataDir: app.config.dataDir });
    app.decorate('imports', service);
    const context: ImportJobContext = {
      db: app.db,
      writes: app.recordWrites,
      transaction: (work) => app.media.transaction(work),
      file: (id) => service.fileOf(id),
      changed: (category) => app.contentChanged({ area: 'records', category: category as never }),
    };
    app.decorate('importJobs', context);
    app.jobs.register(IMPORT_JOB, async (payload, job) => {
      try {
        await runImport(context, String(payload.importId));
      } catch (err) {
        await service.failed(String(payload.importId), err, job.attempts);
        throw err;
      }
    });
    const base = `${API_BASE}/imports`;
    const tags = ['imports'];
    app.addHook('onSend', async (request, reply) => {
      if (request.url.startsWith(base)) reply.header('cache-control', PRIVATE_CACHE_CONTROL);
    });

    app.post(
      base,
      {
        preHandler: app.requireActor,
        schema: {
          tags,
          summary: 'Check a CSV or XLSX file for one category (signed in; nothing is written)',
          description: 'Multipart: `file`, `category`, optional `mapping` (JSON). Every row validated by the category\'s schema, likely duplicates found; rows numbered as a spreadsheet numbers them (the header is row 1).',
          consumes: ['multipart/form-data'],
          response: { 200: importCheckSchema, ...refusals(400, 401, 403, 413, 415) },
        },
      },
      async (request) => {
        const actor = await importer(request);
        const { fields, received } = await readUpload(app, request);
        const parsed = parseUploadFields(fields);
        if ('error' in parsed || !received) {
          if (received) await rm(received.file, { force: true });
          throw httpError.badRequest('error' in parsed ? parsed.error : { file: 'Choose a file (CSV or XLSX)' });
        }
        return service.check(received.file, received.name, parsed.category, parsed.mapping, actor);
      },
    );
    registerImportReads(app, service, base, tags);
    registerImportChanges(app, service, base, tags);
  },
  { name: 'imports', dependencies: ['records'] },
);

function registerImportReads(app: ReturnType<FastifyInstance['withTypeProvider']>, service: ImportService, base: string, tags: string[]) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(base, { preHandler: app.requireActor, schema: { tags, summary: 'Imports, newest first (yours; staff: everyone\'s)', querystring: pageQuery, response: { 200: z.array(importProgressSchema), ...refusals(400, 401) } } }, async (request) =>
    service.list(await importer(request), request.query.limit, request.query.offset),
  );
  typed.get(`${base}/:id`, { preHandler: app.requireActor, schema: { tags, summary: 'An import and its progress', params: idParams, response: { 200: importProgressSchema, ...refusals(400, 401, 404) } } }, async (request) =>
    service.progressOf(await service.find(requireId(request.params.id), await importer(request))),
  );
  typed.get(
    `${base}/:id/problems`,
    { preHandler: app.requireActor, schema: { tags, summary: 'The problems the check found, by row', params: idParams, querystring: pageQuery, response: { 200: z.array(importProblemRowSchema), ...refusals(400, 401, 404) } } },
    async (request, reply) => {
      const { rows, total } = await service.problems(requireId(request.params.id), await importer(request), request.query.limit, request.query.offset);
      reply.header(TOTAL_COUNT_HEADER, String(total));
      return rows;
    },
  );
  typed.get(`${base}/:id/problems.csv`, { preHandler: app.requireActor, schema: { tags, summary: 'The problems as CSV (row, kind, field, message)', params: idParams } }, async (request, reply) => {
    const actor = await importer(request);
    const id = requireId(request.params.id);
    await service.find(id, actor);
    reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="import-${id.slice(0, 8)}-problems.csv"`);
    async function* body() {
      yield `\uFEFF${csvRows([['row', 'kind', 'field', 'message']])}`;
      for await (const page of service.allProblems(id, actor)) yield csvRows(page.map((p) => [p.row, p.kind, p.field, p.message]));
    }
    return reply.send(Readable.from(body()));
  });
  typed.get(
    `${base}/mappings`,
    { preHandler: app.requireActor, schema: { tags, summary: 'Your saved mappings of a category', querystring: z.object({ category: z.string().max(40) }), response: { 200: z.array(savedMappingSchema), ...refusals(400, 401) } } },
    async (request) => service.savedMappings(await importer(request), request.query.category),
  );
}

function registerImportChanges(app: ReturnType<FastifyInstance['withTypeProvider']>, service: ImportService, base: string, tags: string[]) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.post(
    `${base}/mappings`,
    { preHandler: app.requireActor, schema: { tags, summary: 'Save a mapping under a name (replaces one of the same name)', body: saveMappingBodySchema, response: { 200: savedMappingSchema, ...refusals(400, 401, 415) } } },
    async (request) => {
      const actor = await importer(request);
      if (!getCategory(request.body.category)) throw httpError.badRequest({ category: 'Must be a category' });
      return service.saveMapping(actor, request.body.category, request.body.name, request.body.mapping);
    },
  );
  typed.post(
    `${base}/:id/commit`,
    {
      preHandler: app.requireActor,
      schema: { tags, summary: 'Write the checked rows as a background job', params: idParams, body: importCommitSchema.optional(), response: { 202: importProgressSchema, ...refusals(400, 401, 404, 409, 415) } },
    },
    async (request, reply) => {
      const progress = await service.commit(requireId(request.params.id), request.body ?? { duplicates: 'skip', decisions: {} }, await importer(request));
      return reply.status(202).send(progress);
    },
  );
  typed.post(`${base}/:id/cancel`, { preHandler: app.requireActor, schema: { tags, summary: 'Stop the job after the rows under way (those written stay)', params: idParams, response: { 200: importProgressSchema, ...refusals(400, 401, 404) } } }, async (request) =>
    service.cancel(requireId(request.params.id), await importer(request)),
  );
  typed.delete(
    `${base}/:id`,
    { preHandler: app.requireActor, schema: { tags, summary: "Move every record the import created to the trash, in one step", params: idParams, response: { 200: z.object({ trashed: z.number().int() }), ...refusals(400, 401, 404) } } },
    async (request) => {
      const { trashed, category } = await service.trash(requireId(request.params.id), await importer(request));
      app.contentChanged({ area: 'records', category: category as never });
      return { trashed };
    },
  );
}
