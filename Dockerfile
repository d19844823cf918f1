# syntax=docker/dockerfile:1
# The site's image: `docker build -t evidence-site .` from a clean checkout (see docs/deploy.md).
# Three stages: the build (all dependencies, web app and server bundle), the production dependencies alone, and the
# runtime (Debian, ffmpeg and Chromium for videos and link captures, a non-root user, nothing of the build tools).

FROM node:24-bookworm-slim AS build
WORKDIR /app
# Manifests first, so the dependency layer is rebuilt only when they change.
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY scripts ./scripts
COPY packages/shared ./packages/shared
COPY apps/server ./apps/server
COPY apps/web ./apps/web
RUN npm run build

FROM node:24-bookworm-slim AS production-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
# The web app's dependencies stay: the server renders public pages with its components (apps/web/dist-ssr).
# The image's own Node.js runs everything here: the pinned one npm brings for other machines (node-linux-*) is dropped.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force \
  && rm -rf node_modules/node-linux-* node_modules/.bin/node

FROM node:24-bookworm-slim AS runtime
# ffmpeg: video posters and web-playable copies. chromium: captures of cited links. tini: PID 1 that reaps the
# browser's child processes and passes SIGTERM on, so a stop drains requests.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg chromium fonts-noto-core fonts-noto-color-emoji tini ca-certificates \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    PORT=3000 \
    CAPTURE_BROWSER_PATH=/usr/bin/chromium
WORKDIR /app
# Code and dependencies belong to root and are read-only to the site's user; only /data is its own.
COPY --from=production-deps /app ./
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/apps/web/dist ./apps/web/dist
COPY --from=build /app/apps/web/dist-ssr ./apps/web/dist-ssr
# The migrations, the shipped representatives' directory, and the sources `npm run admin` runs (with tsx).
COPY apps/server/drizzle ./apps/server/drizzle
COPY apps/server/src ./apps/server/src
COPY apps/server/tsconfig.json ./apps/server/
COPY packages/shared/src ./packages/shared/src
COPY tsconfig.base.json ./
# The launchers of the server (with the site's Node.js flags) and of `npm run admin`: each becomes the program it
# runs, so tini signals the server itself and an admin command's exit code is npm's.
COPY scripts/serve.mjs scripts/node-flags.mjs scripts/exec-node.mjs scripts/server-source.mjs ./scripts/
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "scripts/serve.mjs"]
