import { constants as zlibConstants } from 'node:zlib';
import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import compress from '@fastify/compress';

declare module 'fastify' {
  interface FastifyInstance {
    /** Lets pages run this exact inline script: its SHA-256 joins the policy's script-src, no other inline code runs. */
    allowInlineScript: (source: string) => void;
  }
}

/** Security headers and compression. Rate limits are kept by the areas that need them (users/rate-limiter.ts). */
export default fp(
  async (app) => {
    const inlineScriptHashes: string[] = [];
    app.decorate('allowInlineScript', (source: string) => {
      const hash = `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`;
      if (!inlineScriptHashes.includes(hash)) inlineScriptHashes.push(hash);
    });
    // helmet's middleware made once: @fastify/helmet made it anew for every request, parsing the policy each time.
    const pageHeaders = helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", () => inlineScriptHashes.join(' ')],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          mediaSrc: ["'self'", 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
      // Media and pages are shared on social networks, which fetch images cross-origin.
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      strictTransportSecurity: app.config.NODE_ENV === 'production',
    });
    // JSON is never rendered as a document, so API answers carry the lean set OWASP recommends for REST services
    // (nosniff, frame-ancestors 'none', HSTS, Referrer-Policy, CORP), the same values helmet gives pages: fewer bytes
    // on every answer, and fewer headers to write on the hot path.
    const apiHeaders: Record<string, string> = {
      'cross-origin-resource-policy': 'cross-origin',
      'referrer-policy': 'no-referrer',
      ...(app.config.NODE_ENV === 'production' ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    };
    app.addHook('onRequest', (request, reply, done) => {
      if (request.url.startsWith('/api/')) {
        reply.headers(apiHeaders);
        return done();
      }
      pageHeaders(request.raw, reply.raw, (err?: unknown) => done(err instanceof Error ? err : undefined));
    });
    // What this compresses is made per request and compressed by nothing else (errors, account and admin answers):
    // brotli's default quality (11) took most of such a read's CPU, quality 4 a small part (docs/performance.md).
    // Record reads compress themselves in one call (compression.ts), cached answers once per entry.
    await app.register(compress, {
      global: true,
      threshold: 1024,
      encodings: ['br', 'gzip'],
      brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
      zlibOptions: { level: 6 },
    });
  },
  { name: 'security', dependencies: ['db'] },
);
