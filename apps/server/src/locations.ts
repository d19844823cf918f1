import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's folder (apps/server), found by walking up from this module, so paths to shipped files hold
 * both when running the TypeScript sources and when running the production bundle in dist/.
 */
function findServerRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === '@app/server') return dir;
    if (path.dirname(dir) === dir) throw new Error(`apps/server/package.json not found above ${start}`);
  }
}

const SERVER_ROOT = findServerRoot(path.dirname(fileURLToPath(import.meta.url)));
export const MIGRATIONS_DIR = path.join(SERVER_ROOT, 'drizzle');
export const WEB_DIST = path.resolve(SERVER_ROOT, '../web/dist');
/** The web app's renderer of public pages (`vite build --ssr`), loaded by the server when present. */
export const WEB_SSR_DIST = path.resolve(SERVER_ROOT, '../web/dist-ssr');
export const SHIPPED_DIRECTORY_FILE = path.join(SERVER_ROOT, 'src/modules/campaign/directory/contacts.json');
