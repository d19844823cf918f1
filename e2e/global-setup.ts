import { existsSync } from 'node:fs';

/** The browser suite tests what ships: the built web app and the bundled server (npm run test:browser builds both). */
export default function globalSetup() {
  for (const built of ['apps/web/dist/index.html', 'apps/server/dist/main.js']) {
    if (!existsSync(built)) {
      throw new Error(`${built} is missing: run \`npm run build\` before the browser tests (npm run test:browser does).`);
    }
  }
}
