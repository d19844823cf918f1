import { Readable } from 'node:stream';
import type { Actor, CategorySlug } from '@app/shared';
import type { LinkCaptureRow } from '../../db/schema';
import { statementBytes } from '../../services/audit-checkpoints';
import { readZip } from '../captures/verify-wacz';
import { BagWriter } from './bag-writer';
import { readContents, type PackageContents, type PackageServices } from './contents';
import { readCustody, type Custody } from './custody';
import { auditKeyPath, captureFilesOf, capturePath, checkpointPath, originalPath, PAYLOAD, personPath, publicCopyPath, publicKeysOf } from './layout';
import { renderReadme } from './readme';

/**
 * The evidence package of one record (docs/evidence-packages.md): a BagIt bag, streamed as a ZIP, with the record and
 * its versions, its people, its sources, its original files as uploaded, their public copies, its captures, and the
 * custody of all of it in the audit chain. Packaging is itself an audit entry, written when the stream ends, with the
 * package's SHA-256.
 */

export const PACKAGE_ACTION = 'evidence-package';

export interface PackageRequest {
  category: CategorySlug;
  id: string;
  actor: Actor;
  includeWithheld: boolean;
  /** How it was asked for (the API, the command line), for the audit entry. */
  via: 'api' | 'command line';
}

export interface PackageResult {
  complete: boolean;
  sha256: string | null;
  bytes: number;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

function addCaptures(bag: BagWriter, services: PackageServices, captures: LinkCaptureRow[]): void {
  for (const capture of captures) {
    for (const { name, stored } of captureFilesOf(capture)) bag.add(capturePath(capture, name), () => services.storage.get(stored.key));
    const wacz = captureFilesOf(capture).find((f) => f.name === 'capture.wacz');
    if (wacz && capture.timestampedAt) {
      // The WACZ's RFC 3161 token as a file of its own, for `openssl ts -verify` (its imprint: the SHA-256 of the
      // WACZ's datapackage.json, also written beside it). A WACZ is small; it is read again for this.
      let read: Promise<{ hash?: string; timestampToken?: string }> | null = null;
      const signed = () =>
        (read ??= (async () => {
          const files = await readZip(Buffer.concat(await (await services.storage.get(wacz.stored.key)).toArray()));
          const digest = JSON.parse(files.get('datapackage-digest.json')?.toString('utf8') ?? '{}') as { signedData?: { hash?: string; timestampToken?: string } };
          return digest.signedData ?? {};
        })());
      bag.add(capturePath(capture, 'timestamp.tsr'), async () => Readable.from([Buffer.from((await signed()).timestampToken ?? '', 'base64')]));
      bag.add(capturePath(capture, 'timestamp-imprint.txt'), async () => Readable.from([`${((await signed()).hash ?? '').replace(/^sha256:/, '')}\n`]));
    }
    const { snapshotKey: _s, screenshotKey: _p, headersKey: _h, waczKey: _w, certificatesKey: _c, ...described } = capture;
    bag.add(capturePath(capture, 'capture.json'), json(described));
  }
}

function addCustody(bag: BagWriter, custody: Custody): void {
  bag.add(PAYLOAD.custody, [...custody.entries, ...custody.checkpoints].map((line) => `${JSON.stringify(line)}\n`).join(''));
  for (const c of custody.checkpoints) {
    bag.add(checkpointPath(c.seq, 'statement.txt'), statementBytes({ seq: c.seq, hash: c.hash, at: new Date(c.at) }));
    bag.add(checkpointPath(c.seq, 'signature.bin'), Buffer.from(c.signature, 'base64'));
    if (c.timestampToken) bag.add(checkpointPath(c.seq, 'timestamp.tsr'), Buffer.from(c.timestampToken, 'base64'));
  }
  const keys = new Map<string, string>();
  for (const e of custody.entries) if (e.role === 'key' && e.subject) keys.set(e.subject, String(e.changes?.publicKey?.after ?? ''));
  for (const c of custody.checkpoints) keys.set(c.keyId, c.publicKey);
  for (const [keyId, pem] of keys) bag.add(auditKeyPath(keyId), `${pem.trim()}\n`);
}

function addPayload(bag: BagWriter, services: PackageServices, contents: PackageContents, custody: Custody, request: PackageRequest, packagedAt: Date): void {
  const { record, people, media, captures } = contents;
  bag.add(PAYLOAD.readme, renderReadme({ contents, custody, request, packagedAt, siteName: services.config.SITE_NAME, siteUrl: services.config.publicUrl }));
  bag.add(PAYLOAD.about, json({ packagedAt: packagedAt.toISOString(), packagedBy: request.via === 'command line' ? 'the site\'s command line' : { id: request.actor.id, role: request.actor.role }, via: request.via, record: { category: request.category, id: request.id }, withheldTestimony: request.includeWithheld ? 'included' : 'left out', site: { name: services.config.SITE_NAME, url: services.config.publicUrl } }));
  bag.add(PAYLOAD.record, json(record.dto));
  bag.add(PAYLOAD.versions, json(record.versions));
  for (const person of people) bag.add(personPath(person.row.id), json({ record: person.dto, versions: person.versions }));
  bag.add(PAYLOAD.sources, json([record, ...people].map((r) => ({ recordId: r.row.id, category: r.row.category, title: r.row.title, sources: r.dto.sources ?? [] }))));
  bag.add(PAYLOAD.originals, json(media.map((file) => ({ file: `data/${originalPath(file)}`, mediaId: file.id, recordId: file.recordId, kind: file.kind, role: file.role, mime: file.mime, size: file.size, sha256AtUpload: file.sha256, originalName: file.originalName, uploadedBy: file.uploadedBy, uploadedAt: file.createdAt.toISOString(), removedAt: file.removedAt?.toISOString() ?? null, caption: file.caption }))));
  for (const file of media) bag.add(originalPath(file), () => services.storage.get(file.storageKey));
  const copies = media.flatMap((file) => publicKeysOf(file).map((copy) => ({ ...copy, mediaId: file.id })));
  const seen = new Set<string>();
  const unique = copies.filter((c) => !seen.has(c.key) && seen.add(c.key));
  bag.add(PAYLOAD.publicCopies, json(unique.map((c) => ({ file: `data/${publicCopyPath(c.key)}`, mediaId: c.mediaId, width: c.width, format: c.format }))));
  for (const copy of unique) bag.add(publicCopyPath(copy.key), () => services.storage.get(copy.key));
  bag.add(PAYLOAD.captures, json(captures.map((c) => ({ id: c.id, recordId: c.recordId, url: c.url, status: c.status, capturedAt: c.capturedAt?.toISOString() ?? null, folder: `data/captures/${c.id}/` }))));
  addCaptures(bag, services, captures);
  bag.add(PAYLOAD.captureKey, `${services.capturePublicKeyPem.trim()}\n`);
  addCustody(bag, custody);
}

/**
 * Starts the package of one live record: null when there is none. The stream is the ZIP; `finished` resolves once it
 * has ended (or was cut off) and its audit entry is written.
 */
export async function startPackage(services: PackageServices, request: PackageRequest): Promise<{ stream: Readable; finished: Promise<PackageResult> } | null> {
  const contents = await readContents(services, request.category, request.id, request.actor, request.includeWithheld);
  if (!contents) return null;
  // A checkpoint of the head now, so the newest entries about the record are linked to a signed checkpoint too.
  await services.audit.checkpoint();
  const checkpoints = await services.audit.listCheckpoints();
  const custody = await readCustody(services.db, [request.id, ...contents.people.map((p) => p.row.id)], checkpoints, request.includeWithheld);
  const packagedAt = new Date();
  const bag = new BagWriter();
  addPayload(bag, services, contents, custody, request, packagedAt);
  bag.finish({
    'Source-Organization': services.config.SITE_NAME,
    'Contact-Email': services.config.CONTACT_EMAIL,
    'External-Identifier': `${services.config.publicUrl}/api/v1.0.0/${request.category}/${request.id}`,
    'External-Description': `Evidence package of the ${request.category} record "${contents.record.row.title}", with ${contents.people.length} linked people, ${contents.media.length} original files and ${contents.captures.length} captures; withheld testimony ${request.includeWithheld ? 'included' : 'left out'}.`,
  });
  const finished = new Promise<PackageResult>((resolve) => {
    let ended = false;
    bag.output.once('end', () => (ended = true));
    bag.output.once('close', () => resolve(ended ? { complete: true, ...bag.packageSha256() } : { complete: false, sha256: null, bytes: bag.packageSha256().bytes }));
  }).then(async (result) => {
    await services.audit.append({
      // The command line is the operator's, not an account's: its entry names none.
      actor: request.via === 'command line' ? null : request.actor,
      action: PACKAGE_ACTION,
      category: request.category,
      recordId: request.id,
      changes: {
        withheldTestimony: { before: null, after: request.includeWithheld ? 'included' : 'left out' },
        via: { before: null, after: request.via },
        complete: { before: null, after: result.complete },
        sha256: { before: null, after: result.sha256 },
        bytes: { before: null, after: result.bytes },
      },
    });
    return result;
  });
  return { stream: bag.output, finished };
}
