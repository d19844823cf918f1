import { existsSync } from 'node:fs';

/** The browser suite needs the built web app (npm run test:browser builds it first). */
export default function globalSetup() {
  if (!existsSync('apps/web/dist/index.html')) {
    throw new Error('apps/web/dist is missing: run `npm run build` before the browser tests (npm run test:browser does).');
  }
}
