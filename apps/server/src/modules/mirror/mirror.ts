import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { CATEGORIES, paths, type CategorySlug } from '@app/shared';
import { EXPORT_FILES, FEED_ADDRESSES, SEARCH_FILE, SEED_PAGES, relativeLink, targetOf, type Target } from './addresses';
import { MirrorFolder, SIGNATURE } from './files';
import { mirrorKeyFingerprint, type MirrorSigner } from './key';
import { rewritePage, rewriteStylesheet } from './rewrite';
import { buildSearchIndex } from './search-index';
import { INDEX_FILE, MINISEARCH_FILE, SEARCH_SCRIPT_FILE, indexScript, miniSearchBrowserBuild, searchPage, searchScript } from './search-page';

/**
 * Writes the public site as a static mirror (decisions.md §8): it reads every page as an anonymous reader through the
 * server's own routes (app.inject, the same renderer and cache as a visit), starting from the fixed pages and lists
 * and following their links, so what a mirror holds is exactly what the public can reach: no private or trashed
 * record (their pages answer 404 to the public and no public page links them), no withheld source (the public answer
 * carries its placeholder), no account, no original file (pages link only public copies).
 */

export interface MirrorReport {
  pages: number;
  files: number;
  written: number;
  unchanged: number;
  removed: number;
  indexed: number;
  publicKeyFingerprint: string;
}

/** Pages rendered at once: the renderer is synchronous, so more than a few only hold more pages in memory. */
const PARALLEL = 4;

type Inject = FastifyInstance['inject'];

function anonymousGet(app: FastifyInstance, url: string, stream = false) {
  // No cookie, no Authorization: what anyone on the internet is sent.
  return (app.inject as Inject)({ method: 'GET', url, headers: { accept: 'text/html,*/*' }, payloadAsStream: stream });
}

class Crawl {
  private readonly queue: Target[] = [];
  private readonly seen = new Set<string>();
  pages = 0;

  constructor(
    private readonly app: FastifyInstance,
    private readonly folder: MirrorFolder,
  ) {}

  add(target: Target): void {
    if (target.kind === 'none' || target.kind === 'search' || this.seen.has(target.file)) return;
    this.seen.add(target.file);
    this.queue.push(target);
  }

  async run(): Promise<void> {
    const worker = async () => {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) await this.take(next);
    };
    // Workers end when the queue is empty; a page's links refill it, so they are started again until nothing is left.
    while (this.queue.length) await Promise.all(Array.from({ length: PARALLEL }, worker));
  }

  private async take(target: Target): Promise<void> {
    if (target.kind === 'page') return this.page(target.address, target.file);
    if (target.kind !== 'file') return;
    // A public copy's name is its content's hash, and the build's assets carry theirs: one the last run wrote is kept.
    const immutable = target.file.startsWith('media/public/') || target.file.startsWith('assets/');
    if (immutable && this.folder.keptFromBefore(target.file)) {
      if (target.file.endsWith('.css')) return this.stylesheet(target.address, target.file);
      return;
    }
    if (target.file.endsWith('.css')) return this.stylesheet(target.address, target.file);
    const res = await anonymousGet(this.app, target.address);
    if (res.statusCode === 200) this.folder.write(target.file, res.rawPayload);
  }

  private async stylesheet(address: string, file: string): Promise<void> {
    const res = await anonymousGet(this.app, address);
    if (res.statusCode !== 200) return;
    const { html, linked } = rewriteStylesheet(res.body, file);
    this.folder.write(file, html);
    for (const target of linked) this.add(target);
  }

  private async page(address: string, file: string): Promise<void> {
    const res = await anonymousGet(this.app, address);
    let html: string;
    if (res.statusCode === 301 || res.statusCode === 308) {
      // A merged record's page: a page that sends the reader on to the record it was merged into.
      const to = targetOf(String(res.headers.location ?? '/'));
      if (to.kind !== 'page') return;
      this.add(to);
      html = redirectPage(file, to.file);
    } else if (res.statusCode === 200 || res.statusCode === 404) {
      // A 404 is written too (the site's not-found page) where a public page links it, so no link of the mirror is dead.
      const rewritten = rewritePage(res.body, file, this.app.brand.publicUrl);
      for (const target of rewritten.linked) this.add(target);
      html = rewritten.html;
    } else {
      throw new Error(`mirror: ${address} answered ${res.statusCode}`);
    }
    this.folder.write(file, html);
    this.pages++;
  }
}

function redirectPage(from: string, to: string): string {
  const href = relativeLink(from, to);
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=${href}"><title>Moved</title></head><body><p><a href="${href}">${href}</a></p></body></html>\n`;
}

async function writeSearch(app: FastifyInstance, folder: MirrorFolder): Promise<number> {
  const layout = await anonymousGet(app, paths.about);
  const page = rewritePage(layout.body, SEARCH_FILE, app.brand.publicUrl).html;
  folder.write(SEARCH_FILE, searchPage(page));
  folder.write(SEARCH_SCRIPT_FILE, searchScript());
  folder.write(MINISEARCH_FILE, miniSearchBrowserBuild());
  const fileOf = (category: CategorySlug, id: string) => {
    const target = targetOf(`${CATEGORIES[category].route}/${id}`);
    return target.kind === 'page' ? target.file : 'index.html';
  };
  const { json, count } = await buildSearchIndex(app.db, fileOf);
  folder.write(INDEX_FILE, indexScript(json));
  return count;
}

async function writeDownloads(app: FastifyInstance, folder: MirrorFolder): Promise<void> {
  for (const [address, file] of Object.entries(EXPORT_FILES)) {
    const res = await anonymousGet(app, address, true);
    if (res.statusCode !== 200) throw new Error(`mirror: the export ${address} answered ${res.statusCode} (${res.body})`);
    await folder.writeStream(file, res.stream());
  }
  for (const address of FEED_ADDRESSES) {
    if (folder.has(address.slice(1))) continue;
    const res = await anonymousGet(app, address);
    if (res.statusCode === 200) folder.write(address.slice(1), res.rawPayload);
  }
}

export async function writeMirror(app: FastifyInstance, out: string, signer: MirrorSigner): Promise<MirrorReport> {
  const folder = new MirrorFolder(out);
  const crawl = new Crawl(app, folder);
  for (const address of SEED_PAGES) crawl.add(targetOf(address));
  await crawl.run();
  const indexed = await writeSearch(app, folder);
  await writeDownloads(app, folder);
  const publicKeyFingerprint = mirrorKeyFingerprint(signer.publicKeyPem) ?? '';
  folder.write('mirror-key.pem', `${signer.publicKeyPem}\n`);
  folder.write(
    'MIRROR.json',
    `${JSON.stringify({ site: app.brand.siteName, publicUrl: app.brand.publicUrl, keyFingerprint: publicKeyFingerprint, records: indexed }, null, 2)}\n`,
  );
  const { manifest, removed } = folder.finish();
  writeFileSync(path.join(out, SIGNATURE), `${signer.sign(manifest)}\n`);
  return { pages: crawl.pages, files: folder.hashes.size, written: folder.written, unchanged: folder.unchanged, removed, indexed, publicKeyFingerprint };
}
