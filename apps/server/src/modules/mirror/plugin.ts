import type { FastifyPluginAsync } from 'fastify';
import { desc, eq } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_BASE, knownMirrorInputSchema, knownMirrorSchema, knownMirrorsSchema } from '@app/shared';
import { knownMirrors } from '../../db/schema';
import { httpError, refusals } from '../../errors';
import { MirrorSigner, mirrorKeyFingerprint } from './key';

const tags = ['mirrors'];
const idParams = z.object({ id: z.uuid({ error: 'Not a mirror id' }) });

const dto = (row: typeof knownMirrors.$inferSelect) => ({
  _id: row.id,
  name: row.name,
  url: row.url,
  fingerprint: row.fingerprint,
  note: row.note,
  createdAt: row.createdAt.toISOString(),
});

/**
 * The mirror key's public half, beside /.well-known/capture-key: what a reader checks a mirror against; and the list of
 * known mirrors (docs/mirror.md) that /mirrors shows, which admins keep.
 */
const mirrorArea: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const signer = MirrorSigner.forDataDir(app.config.dataDir);
  const siteKeyFingerprint = mirrorKeyFingerprint(signer.publicKeyPem) ?? '';
  app.get('/.well-known/mirror-key', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('content-type', 'application/x-pem-file; charset=utf-8').header('cache-control', 'public, max-age=3600').send(`${signer.publicKeyPem}\n`),
  );

  app.get(`${API_BASE}/mirrors`, { schema: { tags, summary: 'Known copies of the public site, with their keys\' fingerprints', response: { 200: knownMirrorsSchema } } }, async (_request, reply) => {
    const rows = await app.db.select().from(knownMirrors).orderBy(desc(knownMirrors.createdAt));
    reply.header('cache-control', 'no-cache');
    return { siteKeyFingerprint, mirrors: rows.map(dto) };
  });

  const adminRefusals = refusals(400, 401, 403);
  app.post(
    `${API_BASE}/mirrors`,
    { preHandler: app.requireRole('admin', 'super'), schema: { tags, summary: 'List a known mirror (admin, super)', body: knownMirrorInputSchema, response: { 201: knownMirrorSchema, ...adminRefusals } } },
    async (request, reply) => {
      const [row] = await app.db.insert(knownMirrors).values(request.body).returning();
      return reply.code(201).send(dto(row!));
    },
  );

  app.delete(
    `${API_BASE}/mirrors/:id`,
    { preHandler: app.requireRole('admin', 'super'), schema: { tags, summary: 'Remove a known mirror from the list (admin, super)', params: idParams, response: { 204: z.null(), ...refusals(400, 401, 403, 404) } } },
    async (request, reply) => {
      const removed = await app.db.delete(knownMirrors).where(eq(knownMirrors.id, request.params.id)).returning({ id: knownMirrors.id });
      if (!removed.length) throw httpError.notFound();
      return reply.code(204).send(null);
    },
  );
};

export default mirrorArea;
