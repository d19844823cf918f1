import { Readable } from 'node:stream';
import { z } from 'zod';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE, auditChainReportSchema, auditEntrySchema, pageLimit, TOTAL_COUNT_HEADER, type AuditEntryDto } from '@app/shared';
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db';
import { users } from '../../db/schema';
import { refusals } from '../../errors';
import { PRIVATE_CACHE_CONTROL } from '../cache/response-cache';
import { chainLines } from './chain-lines';
import { scheduleCheckpoints } from './schedule';
import { auditQuery, checkpointDto, checkpointSchema } from './schemas';

/** The names of the accounts a page of entries names, read in one statement (the entries keep the id only). */
async function actorNames(db: Db, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (!wanted.length) return new Map();
  const rows = await db.select({ id: users.id, firstName: users.firstName, lastName: users.lastName }).from(users).where(inArray(users.id, wanted));
  return new Map(rows.map((row) => [row.id, `${row.firstName} ${row.lastName}`.trim()]));
}

/**
 * What docs/audit.md's "Checking the chain yourself" fetches: the chain and its checkpoints (GET /audit/export, staff,
 * streamed) and the key that signs the checkpoints (public).
 */
function registerCheckingRoutes(fastify: FastifyInstance, staffOnly: ReturnType<FastifyInstance['requireRole']>): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    `${API_BASE}/audit/export`,
    {
      preHandler: staffOnly,
      schema: {
        tags: ['audit'],
        summary: 'The whole audit chain and its signed checkpoints as NDJSON, to check with the steps of docs/audit.md (admin, super)',
        description: 'One JSON object a line: every entry ({"type":"entry",...}) oldest first, then every checkpoint ({"type":"checkpoint",...}). Streamed.',
        response: { 200: z.unknown().describe('application/x-ndjson: one entry or checkpoint a line'), ...refusals(400, 401, 403) },
      },
    },
    async (_request, reply) => {
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-chain-${day}.ndjson"`)
        .header('cache-control', PRIVATE_CACHE_CONTROL)
        .send(Readable.from(chainLines(app.database)));
    },
  );
  app.get('/.well-known/audit-key', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('content-type', 'application/x-pem-file; charset=utf-8').header('cache-control', 'public, max-age=3600').send(`${app.auditSigner.publicKeyPem}\n`),
  );
}

/** The audit log for admins: entries newest first, and a check of the hash chain. */
const auditRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const staffOnly = app.requireRole('admin', 'super');

  app.get(
    `${API_BASE}/audit`,
    {
      preHandler: staffOnly,
      schema: {
        tags: ['audit'],
        summary: 'Audit log entries, newest first (admin, super)',
        description: `Filters recordId and actorId; JSON array; total in ${TOTAL_COUNT_HEADER}.`,
        querystring: auditQuery,
        response: { 200: z.array(auditEntrySchema), ...refusals(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const limit = pageLimit(query);
      const { rows, total } = await app.audit.list({ limit, offset: query.offset ?? 0, recordId: query.recordId, actorId: query.actorId });
      const names = await actorNames(app.db, rows.map((row) => row.actorId));
      reply.header(TOTAL_COUNT_HEADER, String(total)).header('cache-control', PRIVATE_CACHE_CONTROL);
      return rows.map((row): AuditEntryDto => ({ ...row, at: row.at.toISOString(), actorName: (row.actorId && names.get(row.actorId)) ?? null }));
    },
  );

  app.get(
    `${API_BASE}/audit/verify`,
    {
      preHandler: staffOnly,
      schema: {
        tags: ['audit'],
        summary: 'Re-compute the hash chain and check it against every signed checkpoint (admin, super)',
        response: { 200: auditChainReportSchema, ...refusals(400, 401, 403) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', PRIVATE_CACHE_CONTROL);
      return app.audit.verify();
    },
  );

  registerCheckingRoutes(fastify, staffOnly);

  // Public on purpose: anyone may keep copies of the checkpoints and the key, which is what makes a rewritten or cut
  // chain detectable by people who do not trust the site's database. They name no person, only counts and hashes.
  app.get(
    `${API_BASE}/audit/checkpoints`,
    {
      schema: {
        tags: ['audit'],
        summary: "Signed checkpoints of the audit chain's head, oldest first (public)",
        response: { 200: z.array(checkpointSchema), ...refusals(400) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return (await app.audit.listCheckpoints()).map(checkpointDto);
    },
  );
  app.post(
    `${API_BASE}/audit/checkpoints`,
    {
      preHandler: staffOnly,
      schema: {
        tags: ['audit'],
        summary: "Sign the chain's head now (admin, super); 201, or 200 with null when it is signed already",
        response: { 201: checkpointSchema, 200: z.null(), ...refusals(400, 401, 403, 413, 415) },
      },
    },
    async (_request, reply) => {
      const made = await app.audit.checkpoint();
      return reply.status(made ? 201 : 200).send(made ? checkpointDto(made) : null);
    },
  );

  scheduleCheckpoints(app);
};

export default auditRoutes;
