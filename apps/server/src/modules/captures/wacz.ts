import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { WACZ } from '@harvard-lil/js-wacz';
import { CDXIndexer } from 'warcio';
import { requestTimestamp, TimestampRejected, type TimestampTrust } from '../../services/timestamping';
import { TIMESTAMP_REQUESTED, type CaptureSigner } from './signing';

/**
 * Packages a capture's WARC file as WACZ 1.1.1 with Harvard LIL's js-wacz: the WARC under archive/, the CDXJ index
 * (made here with warcio's indexer, in this process, rather than in js-wacz's worker threads), pages.jsonl with the
 * captured page, datapackage.json with each file's SHA-256, and datapackage-digest.json. js-wacz signs only through
 * an authsign server; its signing hook is given the site's own signature instead (signing.ts), in the anonymous-key
 * form, with an RFC 3161 time-stamp of the same hash when a time-stamping authority is set.
 */

export interface WaczPage {
  url: string;
  title: string;
  capturedAt: Date;
}

export interface WaczTimestampOptions {
  tsaUrl: string;
  trust: TimestampTrust;
}

export interface PackagedWacz {
  wacz: Buffer;
  /** The time-stamp's stated time once its token verified; the failure when the authority was asked and failed. */
  timestamp: { time: Date } | { failure: string } | null;
}

const quiet = { trace: () => {}, info: () => {}, warn: () => {}, error: () => {} };

export interface PackageOptions {
  signer: CaptureSigner;
  software: string;
  timestamp?: WaczTimestampOptions;
  extras?: Record<string, unknown>;
}

/**
 * The capture's WACZ; with a time-stamping authority, marked as time-stamped. When the authority fails or its token
 * does not verify, the package is made again without the mark: a file the site made without a token then verifies
 * as one without, and a file that lost its token does not.
 */
export async function packageWacz(warc: Buffer, page: WaczPage, options: PackageOptions): Promise<PackagedWacz> {
  if (!options.timestamp) return packageOnce(warc, page, options);
  const stamped = await packageOnce(warc, page, { ...options, extras: { ...options.extras, [TIMESTAMP_REQUESTED]: true } });
  if (!stamped.timestamp || !('failure' in stamped.timestamp)) return stamped;
  const { timestamp: _asked, ...withoutTimestamp } = options;
  const unstamped = await packageOnce(warc, page, withoutTimestamp);
  return { wacz: unstamped.wacz, timestamp: stamped.timestamp };
}

async function packageOnce(warc: Buffer, page: WaczPage, options: PackageOptions): Promise<PackagedWacz> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'capture-wacz-'));
  try {
    const warcName = 'capture.warc.gz';
    const warcPath = path.join(dir, warcName);
    const output = path.join(dir, 'capture.wacz');
    await writeFile(warcPath, warc, { mode: 0o600 });
    const wacz = new WACZ({
      input: warcPath,
      output,
      url: page.url,
      ts: page.capturedAt.toISOString(),
      title: page.title || page.url,
      description: `A capture of ${page.url} by ${options.software}`,
      log: quiet,
      ...(options.extras ? { datapackageExtras: options.extras } : {}),
    });
    const indexer = new CDXIndexer({ format: 'cdxj' });
    for await (const cdx of indexer.iterIndex([{ reader: createReadStream(warcPath), filename: warcName }])) {
      wacz.addCDXJ(indexer.serializeCDXJ(cdx));
    }
    wacz.addPage(page.url, page.title || null, page.capturedAt.toISOString());

    let datapackage: Buffer | null = null;
    const addFileToZip = wacz.addFileToZip.bind(wacz);
    wacz.addFileToZip = async (file, destination) => {
      // js-wacz 0.1.6 hashes a file it is given by path twice over (it both pipes the stream into the hash and
      // updates the hash with each chunk), so datapackage.json would state a wrong SHA-256: it is given the bytes.
      const bytes = typeof file === 'string' ? await readFile(file) : Buffer.from(file);
      if (destination === 'datapackage.json') datapackage = bytes;
      return addFileToZip(bytes, destination);
    };
    let timestamp: PackagedWacz['timestamp'] = null;
    // js-wacz asks its signing hook once datapackage.json is written, and puts the answer in datapackage-digest.json.
    wacz.signingUrl = 'https://signing.invalid/';
    wacz.requestSignature = async () => {
      const hash = wacz.resources.find((r) => r.name === 'datapackage.json')?.hash;
      if (!hash || !datapackage) throw new Error('js-wacz wrote no datapackage.json to sign');
      const signed: Record<string, unknown> = {
        hash,
        created: wacz.datapackageDate ?? new Date().toISOString(),
        software: options.software,
        signature: options.signer.sign(hash),
        publicKey: options.signer.publicKeyBase64,
      };
      if (options.timestamp) {
        try {
          // Over datapackage.json itself: the token's message imprint is the very hash signed above.
          const stamped = await requestTimestamp(options.timestamp.tsaUrl, datapackage, options.timestamp.trust);
          signed.timestampToken = stamped.token.toString('base64');
          timestamp = { time: stamped.time };
        } catch (err) {
          timestamp = { failure: err instanceof TimestampRejected ? `the time-stamp token was refused: ${err.message}` : (err as Error).message };
        }
      }
      return signed;
    };
    try {
      await wacz.process(false);
    } finally {
      await wacz.indexWARCPool?.destroy();
    }
    return { wacz: await readFile(output), timestamp };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
