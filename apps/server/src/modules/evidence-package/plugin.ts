import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_BASE, CATEGORY_LIST, can, isUuid, type Actor } from '@app/shared';
import { httpError, refusals } from '../../errors';
import { PRIVATE_CACHE_CONTROL } from '../cache/response-cache';
import { CaptureSigner } from '../captures/signing';
import { startPackage } from './package';
import { assertRecentStepUp } from '../../plugins/step-up';

/**
 * GET /api/v1.0.0/{category}/{id}/evidence-package (staff): the record's evidence package, streamed
 * (docs/evidence-packages.md). Withheld witness testimony goes in only when asked for with `withheld=include` and
 * confirmed; the choice is in the package's audit entry.
 */

const idParams = z.object({ id: z.string().describe('Record id (uuid)') });

const packageQuery = z.object({
  withheld: z.enum(['include', 'omit']).optional().describe('include: put withheld witness testimony in the package (needs confirm=yes)'),
  confirm: z.enum(['yes']).optional().describe('yes: the person packaging confirms that the package will name witnesses'),
  v: z.string().optional().describe('A download link signed for its reader (POST .../evidence-package/link), instead of a token; never for withheld testimony'),
});

/** What a signed download link is for: one record's package without withheld testimony. */
const linkResource = (id: string) => `evidence-package:${id}:omit`;

/**
 * Who asks: the token's account, or (without a token) the reader of a signed link, which only a package without
 * withheld testimony takes: a link can end up in a browser's history or a proxy's log, a token does not.
 */
async function packager(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, id: string, query: z.infer<typeof packageQuery>): Promise<Actor> {
  // A token of an account waiting for approval is refused as such (403), not as no token.
  if (request.hasAuthHeader) await app.requireActor(request, reply);
  const actor = request.hasAuthHeader || query.withheld === 'include' ? await request.getActor() : ((await app.media.links?.readerOf(linkResource(id), query.v)) ?? null);
  if (!actor) throw httpError.unauthorized();
  if (!can.approve(actor)) throw httpError.forbidden();
  // A package exports a record whatever its visibility, with its originals: a fresh proof, as every export of private
  // records (decisions.md §4). A signed link was made after one (below).
  if (request.hasAuthHeader || query.withheld === 'include') assertRecentStepUp(actor);
  return actor;
}

/**
 * Whether this request may put withheld testimony in the package: asked for, confirmed, and by a session that proved
 * its second factor in the last minutes. The one place that decides it.
 */
export async function confirmWithheldChoice(_request: FastifyRequest, actor: Actor, query: z.infer<typeof packageQuery>): Promise<boolean> {
  if (query.withheld !== 'include') return false;
  if (query.confirm !== 'yes') {
    throw httpError.badRequest({ confirm: 'A package with withheld witness testimony names witnesses: confirm it with confirm=yes' });
  }
  // It names witnesses: asked again, as every action that can hurt one (decisions.md §4).
  assertRecentStepUp(actor);
  return true;
}

const evidencePackageArea: FastifyPluginAsync = async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const staffOnly = app.requireRole('admin', 'super');
  const capturePublicKeyPem = CaptureSigner.forDataDir(app.config.dataDir).publicKeyPem;
  const services = { db: app.db, storage: app.media.storage, media: app.media, audit: app.audit, config: app.config, capturePublicKeyPem };
  for (const category of CATEGORY_LIST) {
    app.get(
      `${API_BASE}/${category.slug}/:id/evidence-package`,
      {
        schema: {
          tags: [category.slug],
          summary: `The evidence package of one ${category.slug} record: a BagIt bag as a ZIP, streamed (admin, super)`,
          description: 'The record and its versions, its people, sources, original files, public copies, captures and their custody in the audit chain. Withheld witness testimony only with withheld=include and confirm=yes. Each packaging is an audit entry with the package\'s SHA-256.',
          params: idParams,
          querystring: packageQuery,
          response: { 200: z.unknown().describe('application/zip: the BagIt bag'), ...refusals(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const id = isUuid(request.params.id) ? request.params.id.toLowerCase() : '';
        const actor = await packager(app, request, reply, id, request.query);
        if (!id) throw httpError.notFound();
        const includeWithheld = await confirmWithheldChoice(request, actor, request.query);
        const started = await startPackage(services, { category: category.slug, id, actor, includeWithheld, via: 'api' });
        if (!started) throw httpError.notFound();
        started.finished.catch((err: unknown) => request.log.error({ err }, 'evidence package: its audit entry could not be written'));
        return reply
          .header('content-type', 'application/zip')
          .header('content-disposition', `attachment; filename="evidence-${category.slug}-${id}.zip"`)
          .header('cache-control', PRIVATE_CACHE_CONTROL)
          .send(started.stream);
      },
    );
    app.post(
      `${API_BASE}/${category.slug}/:id/evidence-package/link`,
      {
        preHandler: staffOnly,
        schema: {
          tags: [category.slug],
          summary: `A download link of the evidence package of one ${category.slug} record, without withheld testimony, signed for the asking account for minutes (admin, super)`,
          description: 'For browsers, which download a file without sending a token: the link streams the package to disk.',
          params: idParams,
          response: { 200: z.object({ url: z.string() }), ...refusals(400, 401, 403, 404, 413, 415) },
        },
      },
      async (request) => {
        const actor = (await request.getActor())!;
        assertRecentStepUp(actor);
        if (!isUuid(request.params.id)) throw httpError.notFound();
        const id = request.params.id.toLowerCase();
        if (!app.media.links) throw httpError.unavailable('Download links are not set up on this site; use a token');
        return { url: `${API_BASE}/${category.slug}/${id}/evidence-package?v=${app.media.links.sign(linkResource(id), actor)}` };
      },
    );
  }
};

export default evidencePackageArea;
