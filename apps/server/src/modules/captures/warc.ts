import { randomUUID } from 'node:crypto';
import { WARCRecord, WARCSerializer } from 'warcio';

/**
 * A capture's HTTP exchanges as WARC/1.1 records (ISO 28500), written with webrecorder's warcio: a warcinfo record
 * naming the software and the capture's settings, then for every exchange the request and the response (redirects
 * included, each hop an exchange of its own), and a metadata record about the page. warcio computes each record's
 * WARC-Block-Digest and WARC-Payload-Digest (SHA-256); every record is gzipped on its own, so a reader can seek to
 * any of them.
 */

export interface HttpExchange {
  url: string;
  method: string;
  requestHeaders: [string, string][];
  requestBody: Buffer | null;
  status: number;
  statusText: string;
  responseHeaders: [string, string][];
  /** The body as the browser received it, decoded (no content-encoding); empty for redirects. */
  body: Buffer;
  /** When the browser sent the request. */
  at: Date;
}

export interface WarcInfo {
  software: string;
  /** The capture's settings and circumstances, one `name: value` line each in the warcinfo record. */
  settings: Record<string, string>;
  filename: string;
}

/**
 * Headers that describe the bytes on the wire, not the body the browser hands over (which is decoded and whole):
 * kept under an `x-archive-orig-` name, as other web archivers do, so a replay does not decode the body twice.
 */
const WIRE_HEADERS = new Set(['content-encoding', 'transfer-encoding', 'content-length']);

function responseHeaders(exchange: HttpExchange): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of exchange.responseHeaders) {
    if (WIRE_HEADERS.has(name.toLowerCase())) out.push([`x-archive-orig-${name}`, value]);
    else out.push([name, value]);
  }
  out.push(['content-length', String(exchange.body.length)]);
  return out;
}

const warcDate = (d: Date) => d.toISOString();

async function serialize(record: WARCRecord): Promise<Uint8Array> {
  return WARCSerializer.serialize(record, { gzip: true, digest: { algo: 'sha-256', prefix: 'sha256:', base32: false } });
}

/** The WARC file (gzipped records, `.warc.gz`) of a capture's exchanges. */
export async function writeWarc(exchanges: HttpExchange[], info: WarcInfo, pageMetadata: Record<string, unknown>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  const created = new Date();
  const warcinfo = WARCRecord.createWARCInfo(
    { filename: info.filename, warcVersion: 'WARC/1.1', date: warcDate(created) },
    { software: info.software, format: 'WARC File Format 1.1', conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/', ...info.settings },
  );
  const warcinfoId = warcinfo.warcHeader('WARC-Record-ID')!;
  parts.push(await serialize(warcinfo));
  for (const exchange of exchanges) {
    const date = warcDate(exchange.at);
    const responseId = `<urn:uuid:${randomUUID()}>`;
    const url = new URL(exchange.url);
    const response = WARCRecord.create(
      {
        url: exchange.url,
        date,
        type: 'response',
        warcVersion: 'WARC/1.1',
        statusline: `HTTP/1.1 ${exchange.status} ${exchange.statusText || ''}`.trimEnd(),
        httpHeaders: responseHeaders(exchange),
        warcHeaders: { 'WARC-Record-ID': responseId, 'WARC-Warcinfo-ID': warcinfoId },
      },
      [new Uint8Array(exchange.body)],
    );
    const request = WARCRecord.create(
      {
        url: exchange.url,
        date,
        type: 'request',
        warcVersion: 'WARC/1.1',
        statusline: `${exchange.method} ${url.pathname}${url.search} HTTP/1.1`,
        httpHeaders: exchange.requestHeaders.some(([n]) => n.toLowerCase() === 'host') ? exchange.requestHeaders : [['host', url.host], ...exchange.requestHeaders],
        warcHeaders: { 'WARC-Concurrent-To': responseId, 'WARC-Warcinfo-ID': warcinfoId },
      },
      exchange.requestBody ? [new Uint8Array(exchange.requestBody)] : [],
    );
    parts.push(await serialize(response), await serialize(request));
  }
  const first = exchanges[0];
  if (first) {
    // Under a urn of its own (as Browsertrix names its page records): under the page's URL, a replay looking for
    // the page nearest the capture time would find this record instead of the page.
    const metadata = WARCRecord.create(
      {
        url: `urn:pageinfo:${first.url}`,
        date: warcDate(created),
        type: 'metadata',
        warcVersion: 'WARC/1.1',
        warcHeaders: { 'Content-Type': 'application/json', 'WARC-Warcinfo-ID': warcinfoId },
      },
      [new TextEncoder().encode(`${JSON.stringify(pageMetadata, null, 1)}\n`)],
    );
    parts.push(await serialize(metadata));
  }
  return Buffer.concat(parts);
}
