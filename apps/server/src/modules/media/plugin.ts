import path from 'node:path';
import fp from 'fastify-plugin';
import { httpError } from '../../errors';
import { MediaService } from './service';
import { LocalStorage } from './storage';

declare module 'fastify' {
  interface FastifyInstance {
    media: MediaService;
  }
}

const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
};

/** Media service and the public file route. Only keys under `public/` are ever served. */
export default fp(
  async (app) => {
    const storage = new LocalStorage(path.join(app.config.dataDir, 'media'));
    app.decorate('media', new MediaService(app.db, storage));

    app.get('/media/public/:name', async (request, reply) => {
      const { name } = request.params as { name: string };
      if (!/^[a-f0-9]{64}(?:-[a-z0-9]+)?\.[a-z0-9]{2,5}$/.test(name)) throw httpError.notFound();
      const key = `public/${name}`;
      const size = await storage.size(key);
      if (size === null) throw httpError.notFound();
      reply
        .header('content-type', CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream')
        .header('content-length', size)
        // Names are content hashes: the bytes behind a name never change.
        .header('cache-control', 'public, max-age=31536000, immutable');
      return reply.send(await storage.get(key));
    });
  },
  { name: 'media', dependencies: ['db'] },
);
