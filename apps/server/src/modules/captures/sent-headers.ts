import type { BrowserContext, Page, Request } from 'playwright-core';

/**
 * The request headers as the browser sent them, for the web archive's request records. For a request its routing
 * handles (every request of a capture is routed: address-policy.ts), Playwright reports the headers the page asked
 * for, before the network stack added Host, Accept-Encoding, Accept-Language, Connection and Sec-Fetch-*; Chromium's
 * Network.requestWillBeSentExtraInfo events carry the headers it sent. A session of its own on each page listens for
 * them; a request none of those sessions saw (one of a worker, or of a cross-site frame, which runs in a target of
 * its own) keeps what the browser reported.
 */

type HeaderList = [string, string][];

interface SentRequest {
  method: string;
  url: string;
}

interface NetworkRequest {
  /** Each hop of the request (redirects reuse its id), in the order sent. */
  hops: SentRequest[];
  /** The headers sent for each hop, in the same order. */
  sent: HeaderList[];
  claimed: number;
}

/** CDP's header object (several values of one name joined by newlines) as name/value pairs, HTTP/2's pseudo-headers as Host. */
function headerList(headers: Record<string, string>): HeaderList {
  const list: HeaderList = [];
  for (const [name, joined] of Object.entries(headers)) {
    if (name.startsWith(':')) continue;
    for (const value of joined.split('\n')) list.push([name, value]);
  }
  const authority = headers[':authority'];
  if (authority && !list.some(([n]) => n.toLowerCase() === 'host')) list.unshift(['host', authority]);
  return list;
}

export class SentHeaders {
  private readonly requests = new Map<string, NetworkRequest>();
  private readonly watched = new WeakMap<Page, Promise<void>>();

  private entry(requestId: string): NetworkRequest {
    let found = this.requests.get(requestId);
    if (!found) {
      found = { hops: [], sent: [], claimed: 0 };
      this.requests.set(requestId, found);
    }
    return found;
  }

  /** Listens to `page`'s requests; resolves once listening (before the page is sent anywhere). */
  watch(context: BrowserContext, page: Page): Promise<void> {
    let listening = this.watched.get(page);
    if (!listening) {
      listening = this.listen(context, page);
      this.watched.set(page, listening);
    }
    return listening;
  }

  private async listen(context: BrowserContext, page: Page): Promise<void> {
    const cdp = await context.newCDPSession(page);
    cdp.on('Network.requestWillBeSent', (e) => this.entry(e.requestId).hops.push({ method: e.request.method, url: e.request.url }));
    cdp.on('Network.requestWillBeSentExtraInfo', (e) => this.entry(e.requestId).sent.push(headerList(e.headers)));
    await cdp.send('Network.enable');
  }

  /** The headers sent for `request` (the first hop of that method and URL not claimed yet), or what the browser reported. */
  async of(request: Request): Promise<HeaderList> {
    const url = request.url();
    const method = request.method();
    for (const entry of this.requests.values()) {
      const i = entry.hops.findIndex((hop, at) => at >= entry.claimed && hop.url === url && hop.method === method);
      const sent = i >= 0 ? entry.sent[i] : undefined;
      if (sent) {
        entry.claimed = i + 1;
        return sent;
      }
    }
    return (await request.headersArray()).map((h) => [h.name, h.value]);
  }
}
