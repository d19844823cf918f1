// The Node.js flags the site's server runs with, in this one place: scripts/serve.mjs (npm start, npm run serve, the
// Docker image, deploy/evidence-site.service, the browser suite) and the bench read them from here, and
// apps/server/test/deploy-files.test.ts fails when a copy appears anywhere else.
//
// `--max-semi-space-size=8` bounds V8's young generation, which V8 sizes before any code runs (so bootstrap.ts, which
// sets the heap's growth, cannot): V8's default held more memory under unique list pages for the same CPU per read.
// `--enable-source-maps` is left out: with it Node.js reads and keeps source maps (the bundle's and those of the npm
// modules) and the site holds more memory at rest. The bundle is not minified, so its stack traces stay readable;
// NODE_OPTIONS=--enable-source-maps maps them onto the TypeScript (docs/configuration.md).
// The figures, with the commands that measure them: docs/performance.md, memory.

export const SITE_NODE_FLAGS = ['--max-semi-space-size=8'];

// The environment the site's process starts with, from the same places, each value only where the operator set none.
// MALLOC_ARENA_MAX=2: glibc gives every thread that allocates (libuv's pool, V8's workers, sharp's libvips) an arena
// of its own, each holding freed memory apart; the site, right after a first start and one sign-in, held 165-208 MB
// with the default and 143-156 MB with two arenas, for the same work (docs/performance.md, memory).
export const SITE_ENVIRONMENT = { MALLOC_ARENA_MAX: '2' };

/** `env` with the site's environment added where `env` does not already say otherwise. */
export const withSiteEnvironment = (env) => ({ ...SITE_ENVIRONMENT, ...env });
