import type { BrowserContext, Page, Response } from 'playwright-core';
import { CaptureRefused } from './address-policy';
import { REFUSED_HEADER, UPSTREAM_ERROR_HEADER, type GuardedProxy } from './guarded-proxy';

/**
 * The documents the captured page's main frame loaded. The capture is taken seconds after the first load, and a page
 * can load another document in between (`location.replace`, a form sent by script, a meta refresh): the address and
 * status recorded are those of the document the screenshot and snapshot show, and a capture whose page changed so
 * says so. A page left on Chromium's error page (it moved to an address that was refused or does not answer) is no
 * capture of anything.
 */

export interface DocumentLoad {
  url: string;
  status: number;
}

/** Throws when `response` is the capture proxy's refusal or its report of a server that did not answer, not the site's. */
export function checkDocument(response: Response): void {
  const refused = response.headers()[REFUSED_HEADER];
  if (refused !== undefined) throw new CaptureRefused(`${decodeURIComponent(refused)} (${response.url()})`);
  const unreachable = response.headers()[UPSTREAM_ERROR_HEADER];
  if (unreachable !== undefined) throw new Error(`the page could not be loaded: ${decodeURIComponent(unreachable)}`);
}

export interface CaptureLimits {
  /** Milliseconds left of the capture's time limit. */
  remaining: () => number;
  timedOut: () => boolean;
  timeoutMs: number;
}

export function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 500);
}

/** The page loaded, or why not: a refused address or hop, an unreachable server, or the time limit. */
export async function loadPage(
  page: Page,
  url: string,
  proxy: GuardedProxy,
  routeRefused: { url: string; reason: string }[],
  limits: CaptureLimits,
): Promise<Response> {
  let response: Response | null;
  try {
    response = await page.goto(url, { waitUntil: 'load', timeout: limits.remaining() });
  } catch (err) {
    const refusal = routeRefused[0] ?? proxy.refused[0];
    if (refusal) throw new CaptureRefused(`${refusal.reason}${refusal.url && refusal.url !== url ? ` (${refusal.url})` : ''}`);
    if (limits.timedOut()) throw new Error(`the page did not load within ${Math.round(limits.timeoutMs / 1000)} s`);
    throw new Error(`the page could not be loaded: ${firstLine(err)}`);
  }
  if (!response) throw new Error('the browser received no response for the page');
  checkDocument(response);
  return response;
}

export class MainDocuments {
  /** Each document the main frame received (redirect hops left out), oldest first. */
  private readonly responses: Response[] = [];
  private readonly failures: { url: string; error: string }[] = [];

  constructor(private readonly page: Page) {
    page.on('response', (response) => {
      const request = response.request();
      if (!request.isNavigationRequest() || response.frame() !== page.mainFrame()) return;
      if (response.status() >= 300 && response.status() < 400 && response.headers().location) return;
      this.responses.push(response);
    });
    page.on('requestfailed', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
        this.failures.push({ url: request.url(), error: request.failure()?.errorText ?? 'failed' });
      }
    });
  }

  /** How many documents were loaded or failed to: a count that moves while the page is captured means the capture mixes two. */
  get count(): number {
    return this.responses.length + this.failures.length;
  }

  /**
   * The document shown now, checked: not an error page, not the proxy's refusal. `refusedUrls` are the addresses the
   * capture's request routing refused (a move to one of them is a refusal, final like a refused redirect).
   */
  current(refusedUrls: { url: string; reason: string }[]): Response {
    const shown = this.responses.at(-1);
    if (this.page.url().startsWith('chrome-error:') || !shown) {
      const failed = this.failures.at(-1);
      const refusal = failed && refusedUrls.find((r) => r.url === failed.url);
      if (refusal) throw new CaptureRefused(`the page moved itself to an address that is refused: ${refusal.reason} (${refusal.url})`);
      throw new Error(`the page moved itself to ${failed?.url ?? 'another address'}, which could not be loaded (${failed?.error ?? "the browser's error page"})`);
    }
    checkDocument(shown);
    return shown;
  }

  /**
   * The screenshot (PNG, the full page) and the single-file snapshot (MHTML) of the document shown: of one document,
   * or an error to try again when the page loaded another one meanwhile.
   */
  async pictures(context: BrowserContext, maxBytes: number, limits: CaptureLimits): Promise<{ screenshot: Buffer; snapshot: Buffer }> {
    const loaded = this.count;
    const screenshot = await this.page.screenshot({ fullPage: true, type: 'png', timeout: limits.remaining() });
    const cdp = await context.newCDPSession(this.page);
    const { data } = await cdp.send('Page.captureSnapshot', { format: 'mhtml' });
    const snapshot = Buffer.from(data, 'utf8');
    if (this.count !== loaded || this.page.url().startsWith('chrome-error:')) throw new Error('the page loaded another document while it was being captured');
    for (const [name, bytes] of [['snapshot', snapshot], ['screenshot', screenshot]] as const) {
      if (bytes.length > maxBytes) throw new CaptureRefused(`the ${name} is larger than the limit of ${Math.round(maxBytes / 1024 / 1024)} MB`);
    }
    return { screenshot, snapshot };
  }

  /** Every document loaded, oldest first. */
  loads(): DocumentLoad[] {
    return this.responses.map((r) => ({ url: r.url(), status: r.status() }));
  }
}
