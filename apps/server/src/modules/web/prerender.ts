import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { BrandConfig } from '@app/shared';
import type { PrerenderedBody } from './shell';

/** The web app's server renderer (apps/web/src/entry-server.tsx), as the server sees it. */
type Api = (url: string, init: RequestInit) => Promise<Response>;
interface WebRenderer {
  render(url: string, options: { brand: BrandConfig; api: Api }): Promise<{ html: string; stateScript: string; modules: string[]; status?: number; title?: string; islands?: string[] } | null>;
}

/** An answer of the site's own API, as the renderer reads it. */
interface ApiAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  rawPayload: Buffer;
}

/**
 * What the renderer uses: a GET of the site's own API answered in-process without credentials (what an anonymous
 * visitor may read), and the log for failed renders.
 */
interface PrerenderServices {
  readApi: (url: string) => Promise<ApiAnswer>;
  log: Pick<FastifyBaseLogger, 'error'>;
}

/** A rendered page and the status it is answered with. */
type RenderedPage = PrerenderedBody & { status: number; title?: string };

/** One entry of Vite's build manifest (dist/.vite/manifest.json). */
interface ManifestChunk {
  file: string;
  name?: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}
export type BuildManifest = Record<string, ManifestChunk>;

/**
 * The manifest's key of a module: its source path, or, for a module the bundler placed in a chunk with others (the
 * islands' shared chunk), that chunk's (`_<name>-<hash>.js`, `name` the module's file name when it is the chunk's
 * first); null when not found.
 */
function chunkKeyOf(manifest: BuildManifest, module: string): string | null {
  if (manifest[module]) return module;
  const name = module.split('/').at(-1)?.replace(/\.[^.]+$/, '');
  const found = Object.keys(manifest).filter((key) => key.startsWith('_') && manifest[key]?.name === name);
  return found.length === 1 ? found[0]! : null;
}

/** Every chunk a module needs: its own and, transitively, those it imports statically (not the lazy ones). */
function staticClosure(manifest: BuildManifest, keys: string[]): ManifestChunk[] {
  const seen = new Set<string>();
  const chunks: ManifestChunk[] = [];
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (seen.has(key) || !chunk) return;
    seen.add(key);
    chunks.push(chunk);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return chunks;
}

/** The entry of a reading page's islands (apps/web/src/islands/start.tsx); the app's is index.html. */
export const ISLANDS_ENTRY = 'src/islands/start.tsx';

/**
 * What a server-rendered page links: the screen's styles beyond the app's own (which index.html links), every script
 * the app runs on it, the app's entry first, so the app starts without waiting for one chunk to name the next, and
 * the scripts of its islands (`islands`: their modules), their entry first: for a signed-out reader in English the
 * page's only code. No islands: the app's code alone (a screen's frame).
 */
export function pageAssets(manifest: BuildManifest, modules: string[], islands: string[] = []): { styles: string[]; scripts: string[]; islandScripts: string[] } {
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry && key !== ISLANDS_ENTRY);
  const app = staticClosure(manifest, entries);
  const appStyles = new Set(app.flatMap((chunk) => chunk.css ?? []));
  const screen = staticClosure(manifest, modules);
  const styles = new Set(screen.flatMap((chunk) => chunk.css ?? []).filter((css) => !appStyles.has(css)));
  const scripts = new Set([...app, ...screen].map((chunk) => chunk.file));
  const islandKeys = islands.map((module) => chunkKeyOf(manifest, module)).filter((key): key is string => key !== null);
  const islandScripts = islands.length && manifest[ISLANDS_ENTRY] ? new Set(staticClosure(manifest, [ISLANDS_ENTRY, ...islandKeys]).map((chunk) => chunk.file)) : new Set<string>();
  const href = (files: Set<string>) => [...files].map((f) => `/${f}`);
  return { styles: [...styles].map((f) => `/${f}`), scripts: href(scripts), islandScripts: href(islandScripts) };
}

/**
 * Renders public pages to HTML with the web app's own components, so a visitor reads the page before any script has
 * arrived (the largest paint no longer waits for the app's code and its API call). The renderer's API calls are
 * answered in-process, without credentials, so only what an anonymous visitor may read is ever rendered.
 * Without a server build (tests, `npm run dev`) or when a render fails, the page is the plain shell.
 */
export function createPrerenderer(services: PrerenderServices, options: { ssrDir: string; distDir: string; brand: BrandConfig }) {
  const entry = path.join(options.ssrDir, 'entry-server.js');
  const manifestFile = path.join(options.distDir, '.vite', 'manifest.json');
  const startScriptFile = path.join(options.distDir, 'start-app.js');
  if (![entry, manifestFile, startScriptFile].every((file) => existsSync(file))) return null;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BuildManifest;
  // Inlined into every rendered page (see renderShell); closing the element early would cut the page.
  const startScript = readFileSync(startScriptFile, 'utf8').trim();
  if (/<\/script/i.test(startScript)) throw new Error(`${startScriptFile}: cannot be inlined, it contains "</script"`);

  // Loaded on the first page view: the renderer and its libraries cost memory only once pages are asked for.
  let renderer: Promise<WebRenderer> | null = null;
  const load = () => (renderer ??= import(pathToFileURL(entry).href) as Promise<WebRenderer>);

  // The page's API calls, answered by this app without credentials: what an anonymous visitor may read, no more. A
  // call answered 404 means the page's record is missing, trashed or private: the page is answered 404 too.
  const apiFor = (seen: { notFound: boolean }): Api => async (url, init) => {
    if ((init.method ?? 'GET') !== 'GET') throw new Error(`prerender: only reads, not ${init.method} ${url}`);
    const res = await services.readApi(url);
    if (res.statusCode === 404) seen.notFound = true;
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
    const noBody = res.statusCode === 204 || res.statusCode === 205 || res.statusCode === 304;
    return new Response(noBody ? null : res.rawPayload, { status: res.statusCode, headers });
  };

  return {
    /** The inline script every rendered page carries (the security policy must allow it). */
    startScript,
    async render(url: string): Promise<RenderedPage | null> {
      try {
        const seen = { notFound: false };
        const page = await (await load()).render(url, { brand: options.brand, api: apiFor(seen) });
        if (!page) return null;
        const status = seen.notFound ? 404 : (page.status ?? 200);
        return { html: page.html, stateScript: page.stateScript, startScript, status, title: page.title, ...pageAssets(manifest, page.modules, page.islands) };
      } catch (err) {
        services.log.error({ err, url }, 'prerender failed: sending the page without its content');
        return null;
      }
    },
  };
}
