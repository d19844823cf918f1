import path from 'node:path';
import fp from 'fastify-plugin';
import { API_BASE, can } from '@app/shared';
import { AppError, httpError } from '../../errors';
import { etagMatches } from '../../etag';
import { PUBLIC_CONTENT_TYPES, PUBLIC_NAME } from './formats';
import { parseRange } from './range';
import { copyAccess } from './public-access';
import { MediaService, VIDEO_JOB } from './service';
import { SignedLinks } from './signed-links';
import { S3Storage, createStorage } from './storage';
import { findFfmpeg } from './video';

declare module 'fastify' {
  interface FastifyInstance {
    media: MediaService;
  }
}

/**
 * The media service, its `video.process` job, and the media routes: public copies under /media/public/ (only keys
 * under `public/` are ever served; originals never are) and the fixity check. The images API is in modules/records.
 */
export default fp(
  async (app) => {
    const { config } = app;
    const storage = createStorage(config);
    const ffmpeg = findFfmpeg();
    const links = new SignedLinks(app.db, config.jwtSecret);
    const service = new MediaService(app.db, storage, {
      links,
      maxImageBytes: config.MAX_IMAGE_MB,
      maxVideoBytes: config.MAX_VIDEO_MB,
      minFreeBytes: config.STORAGE_MIN_FREE_MB,
      tmpDir: path.join(config.dataDir, 'tmp', 'uploads'),
      jobs: app.jobs,
      ffmpeg,
      log: { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m) },
    });
    app.decorate('media', service);
    app.jobs.register(VIDEO_JOB, async (payload, job) => {
      await service.processVideo(String(payload.mediaId), job);
      // Ready (or failed) now: the record's public answers still say "queued" until they are made again.
      app.contentChanged({ area: 'records' });
    });
    if (!ffmpeg) app.log.warn('ffmpeg not found: uploaded videos will be served as uploaded, without a poster');
    app.addHook('onReady', async () => {
      const removed = await service.cleanStaging().catch(() => 0);
      if (removed) app.log.info(`media: removed ${removed} stale staging files`);
    });
    app.addHook('onClose', async () => {
      if (storage instanceof S3Storage) storage.destroy();
    });

    // Public copies, streamed from the storage (local folder or S3) so URLs and the CSP are the same for both.
    app.route<{ Params: { name: string } }>({
      // HEAD declared here so it answers with the real length (Fastify's generated HEAD route would send 0).
      method: ['GET', 'HEAD'],
      url: '/media/public/:name',
      handler: async (request, reply) => {
        const { name } = request.params;
        // Only the names the site makes: no other characters, so no path traversal and no listing.
        if (!PUBLIC_NAME.test(name)) throw httpError.notFound();
        const key = `public/${name}`;
        // A copy of a deleted file or of a trashed record answers 404 as if it never existed, to everyone; a copy on
        // a private record the same to anyone but a signed-in reader (its token, or a link the API signed for it).
        const access = await copyAccess(app.db, key);
        if (access === null) throw httpError.notFound();
        const hidden = access === 'private';
        if (hidden && !can.readPrivate(await links.readerOfRequest(request, key))) throw httpError.notFound();
        const size = await storage.size(key);
        if (size === null) throw httpError.notFound();
        const range = parseRange(request.headers.range, size);
        if (range === 'unsatisfiable') {
          throw new AppError(416, { message: 'Range not satisfiable' }, { 'content-range': `bytes */${size}` });
        }
        const etag = `"${name}"`;
        reply
          .header('content-type', PUBLIC_CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream')
          // The bytes behind a name never change, but a copy may be hidden at any moment: shared caches keep a public
          // copy for ten minutes at most; a hidden one is for the reader's browser alone, which asks again each time
          // (an ETag, so a 304), so a deletion or a trash hides even what it kept.
          .header('cache-control', hidden ? 'private, no-cache' : 'public, max-age=600')
          .header('etag', etag)
          .header('accept-ranges', 'bytes');
        if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
        if (range) {
          reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`).header('content-length', range.end - range.start + 1);
        } else {
          reply.header('content-length', size);
        }
        if (request.method === 'HEAD') return reply.send();
        return reply.send(await storage.get(key, range ?? undefined));
      },
    });

    app.get(`${API_BASE}/media/verify`, { preHandler: app.requireRole('admin', 'super') }, async () => service.verify());
  },
  { name: 'media', dependencies: ['db', 'auth'] },
);
