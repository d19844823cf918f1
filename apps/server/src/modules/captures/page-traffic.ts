import type { Request } from 'playwright-core';
import { REFUSED_HEADER, UPSTREAM_ERROR_HEADER } from './guarded-proxy';
import type { SentHeaders } from './sent-headers';
import type { HttpExchange } from './warc';

/** What a capture records of the page's traffic: its HTTP exchanges (the web archive's records) and its redirect hops. */

export interface HeaderHop {
  url: string;
  status: number | null;
  headers: { name: string; value: string }[];
}

/**
 * Gathers the page's HTTP exchanges as the browser finishes them (a redirect hop finishes too): the request headers
 * as sent (sent-headers.ts), the response headers, and the body the browser received. The capture proxy's own refusals and errors are not the site's answers
 * and are left out (headers.json names them).
 */
export class ExchangeRecorder {
  private readonly pending: Promise<HttpExchange | null>[] = [];

  constructor(private readonly sentHeaders: SentHeaders) {}

  finished(request: Request): void {
    this.pending.push(this.record(request).catch(() => null));
  }

  private async record(request: Request): Promise<HttpExchange | null> {
    const response = await request.response();
    if (!response || !/^https?:/.test(request.url())) return null;
    const responseHeaders = await response.headersArray();
    if (responseHeaders.some((h) => [REFUSED_HEADER, UPSTREAM_ERROR_HEADER].includes(h.name.toLowerCase()))) return null;
    const status = response.status();
    const redirect = status >= 300 && status < 400;
    const body = redirect ? Buffer.alloc(0) : await response.body().catch(() => Buffer.alloc(0));
    const startTime = request.timing().startTime;
    return {
      url: request.url(),
      method: request.method(),
      requestHeaders: await this.sentHeaders.of(request),
      requestBody: request.postDataBuffer(),
      status,
      statusText: response.statusText(),
      responseHeaders: responseHeaders.map((h) => [h.name, h.value]),
      body,
      at: new Date(startTime > 0 ? startTime : Date.now()),
    };
  }

  /** Every exchange finished so far, oldest request first. */
  async all(): Promise<HttpExchange[]> {
    const done = (await Promise.all(this.pending)).filter((e): e is HttpExchange => e !== null);
    return done.sort((a, b) => a.at.getTime() - b.at.getTime());
  }
}

/** The hops from the cited URL to the final page, oldest first, each with its status and headers. */
export async function headerHops(last: Request): Promise<HeaderHop[]> {
  const hops: HeaderHop[] = [];
  for (let request: Request | null = last; request; request = request.redirectedFrom()) {
    const response = await request.response();
    hops.unshift({
      url: request.url(),
      status: response?.status() ?? null,
      headers: response ? await response.headersArray() : [],
    });
  }
  return hops;
}

/**
 * headers.json of a capture: the response headers of every hop from the cited URL to the page shown, every document
 * the page loaded (more than one: it replaced itself after it loaded), the address it showed when captured (a script
 * can change it without loading anything), and what was refused.
 */
export function headersFile(content: {
  requestedUrl: string;
  finalUrl: string;
  status: number;
  capturedAt: string;
  hops: HeaderHop[];
  documents: { url: string; status: number }[];
  addressShown: string;
  refused: { url: string; reason: string }[];
}): Buffer {
  return Buffer.from(`${JSON.stringify(content, null, 1)}\n`);
}
