import { accessSync, constants } from 'node:fs';
import type { Browser, Page, Response } from 'playwright-core';
import { CAPTURE_CHROMIUM_FLAGS } from '@app/shared';
import { CaptureRefused, type AddressPolicy } from './address-policy';
import { GuardedProxy, REFUSED_HEADER, UPSTREAM_ERROR_HEADER } from './guarded-proxy';
import { BrowserNamespace, namespaceSupport } from './network-namespace';
import { captureSettings } from './capture-settings';
import { ExchangeRecorder, headerHops, headersFile } from './page-traffic';
import type { HttpExchange } from './warc';
import { removeWebRtc } from './webrtc';

export function browserAvailable(browserPath: string): boolean {
  try {
    accessSync(browserPath, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface PageCapture {
  capturedAt: Date;
  finalUrl: string;
  httpStatus: number;
  title: string;
  /** The page as one MHTML file (Chromium's Page.captureSnapshot): HTML, styles and images. */
  snapshot: Buffer;
  screenshot: Buffer;
  /** JSON: the response headers of every hop from the cited URL to the final page, and what was refused. */
  headers: Buffer;
  /** Every HTTP exchange of the page (redirect hops, sub-resources), oldest first: the web archive's records. */
  exchanges: HttpExchange[];
  /** The TLS certificate chains of the page's https hosts, PEM (guarded-proxy.ts says how they are read), or null for none. */
  certificates: string | null;
  /** The browser and the settings it captured with, for the archive's warcinfo record. */
  settings: Record<string, string>;
}

export interface CapturerOptions {
  browserPath: string;
  timeoutMs: number;
  maxBytes: number;
  policy: AddressPolicy;
  /** The browser is closed after this long without a capture: its memory is the rest of the site's to use. */
  idleCloseMs?: number;
  /**
   * `namespace` (the default): the browser runs in a network namespace of its own where the platform allows it
   * (network-namespace.ts), else as `none` says, with a warning. Tests set `none` to check the other guards alone.
   */
  isolation?: 'namespace' | 'none';
  /** `keep` only for the tests that show the namespace alone holds: pages lose WebRTC before their scripts run. */
  webrtc?: 'remove' | 'keep';
  /** Capture https pages whose certificate the browser refuses (CAPTURE_ACCEPT_INVALID_TLS); their chains are recorded as shown. */
  ignoreHttpsErrors?: boolean;
  log?: { warn: (msg: string) => void };
}

interface LaunchedBrowser {
  browser: Browser;
  userAgent: string;
  version: string;
  namespace: BrowserNamespace | null;
}

/** Failures that another attempt would not change: refused addresses, a page over the size limit. */
export const isPermanent = (err: unknown) => err instanceof CaptureRefused;

/**
 * Captures pages in headless Chromium, one browser per process kept between captures, one fresh context (no cookies
 * or cache shared between captures) per page.
 */
export class PageCapturer {
  private browser: Promise<LaunchedBrowser> | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private active = 0;

  constructor(private readonly options: CapturerOptions) {}

  /** Whether the browser runs in a network namespace of its own (null until it has started once). */
  isolated: boolean | null = null;

  private namespace(): BrowserNamespace | null {
    if (this.options.isolation === 'none') return null;
    const support = namespaceSupport();
    if (support.ok) return new BrowserNamespace(this.options.browserPath);
    if (this.isolated === null) {
      this.options.log?.warn(`capture browser: no network namespace of its own (${support.reason}); pages lose WebRTC, but other UDP is not confined`);
    }
    return null;
  }

  private async launch(): Promise<LaunchedBrowser> {
    if (!this.browser) {
      const { chromium } = await import('playwright-core');
      const namespace = this.namespace();
      this.isolated = namespace !== null;
      this.browser = chromium
        .launch({
          executablePath: namespace?.executablePath ?? this.options.browserPath,
          env: namespace ? { ...process.env, ...namespace.env() } : undefined,
          headless: true,
          args: [...CAPTURE_CHROMIUM_FLAGS],
          timeout: 30_000,
        })
        .then(async (browser) => {
          browser.on('disconnected', () => {
            this.browser = null;
            namespace?.close();
          });
          await namespace?.connect();
          const session = await browser.newBrowserCDPSession();
          const { userAgent, product } = await session.send('Browser.getVersion');
          await session.detach();
          // Many sites turn away a browser that calls itself headless; the capture is of what a reader is shown.
          return { browser, userAgent: userAgent.replace('HeadlessChrome', 'Chrome'), version: product, namespace };
        });
      this.browser.catch(() => {
        this.browser = null;
        namespace?.close();
      });
    }
    return this.browser;
  }

  /** The proxy's address as the browser reaches it: on loopback, or through its namespace's forwarder. */
  private async proxyFor(proxy: GuardedProxy, namespace: BrowserNamespace | null): Promise<{ server: string; release: () => Promise<void> }> {
    if (!namespace) return { server: await proxy.listen(), release: async () => {} };
    const socketPath = namespace.socketPath();
    await proxy.listen(socketPath);
    const port = await namespace.forward(socketPath);
    return { server: `http://127.0.0.1:${port}`, release: () => namespace.unforward(port) };
  }

  async capture(url: string): Promise<PageCapture> {
    // Checked before the browser starts: a refused link costs nothing and reaches no one.
    await this.options.policy.checkUrl(url);
    this.active++;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const proxy = new GuardedProxy(this.options.policy, this.options.maxBytes);
    let releaseProxy = async () => {};
    const started = Date.now();
    const remaining = () => Math.max(1000, this.options.timeoutMs - (Date.now() - started));
    const routeRefused: { url: string; reason: string }[] = [];
    let context: Awaited<ReturnType<Browser['newContext']>> | null = null;
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      void context?.close().catch(() => {});
    }, this.options.timeoutMs);
    try {
      const { browser, userAgent, version, namespace } = await this.launch();
      const { server, release } = await this.proxyFor(proxy, namespace);
      releaseProxy = release;
      const opened = await this.newContext(browser, server, userAgent, routeRefused);
      context = opened.context;
      const recorder = opened.recorder;
      const page = await context.newPage();
      const response = await this.load(page, url, proxy, routeRefused, () => timedOut, remaining);
      // Images and late requests settle; a page that never goes quiet is captured as it is after a few seconds.
      await page.waitForLoadState('networkidle', { timeout: Math.min(3000, remaining()) }).catch(() => {});
      if (proxy.overLimit) throw new CaptureRefused(proxy.refused.find((r) => !r.url)!.reason);
      const screenshot = await page.screenshot({ fullPage: true, type: 'png', timeout: remaining() });
      const cdp = await context.newCDPSession(page);
      const { data } = await cdp.send('Page.captureSnapshot', { format: 'mhtml' });
      const snapshot = Buffer.from(data, 'utf8');
      for (const [name, bytes] of [['snapshot', snapshot], ['screenshot', screenshot]] as const) {
        if (bytes.length > this.options.maxBytes) {
          throw new CaptureRefused(`the ${name} is larger than the limit of ${Math.round(this.options.maxBytes / 1024 / 1024)} MB`);
        }
      }
      if (timedOut) throw new Error(`the page was not captured within ${Math.round(this.options.timeoutMs / 1000)} s`);
      const hops = await headerHops(response.request());
      const exchanges = await recorder.all();
      const certificates = await proxy.certificates();
      const capturedAt = new Date();
      const headers = headersFile({ requestedUrl: url, finalUrl: response.url(), status: response.status(), capturedAt: capturedAt.toISOString(), hops, refused: [...routeRefused, ...proxy.refused] });
      const settings = captureSettings(this.options, { version, userAgent, isolated: namespace !== null, url, finalUrl: response.url() });
      return {
        capturedAt,
        finalUrl: response.url(),
        httpStatus: response.status(),
        title: await page.title(),
        snapshot,
        screenshot,
        headers,
        exchanges,
        certificates,
        settings,
      };
    } catch (err) {
      if (timedOut && !(err instanceof CaptureRefused)) {
        throw new Error(`the page was not captured within ${Math.round(this.options.timeoutMs / 1000)} s`, { cause: err });
      }
      throw err;
    } finally {
      clearTimeout(deadline);
      await context?.close().catch(() => {});
      await releaseProxy();
      await proxy.close();
      this.active--;
      this.scheduleIdleClose();
    }
  }

  /** A fresh context for one page, through the proxy at `server`, every request checked first (refusals kept). */
  private async newContext(browser: Browser, server: string, userAgent: string, routeRefused: { url: string; reason: string }[]) {
    const context = await browser.newContext({
      proxy: { server },
      viewport: { width: 1280, height: 900 },
      serviceWorkers: 'block',
      acceptDownloads: false,
      userAgent,
      ...(this.options.ignoreHttpsErrors ? { ignoreHTTPSErrors: true } : {}),
    });
    const recorder = new ExchangeRecorder();
    context.on('requestfinished', (request) => recorder.finished(request));
    if (this.options.webrtc !== 'keep') await context.addInitScript(removeWebRtc);
    // The first check, with its reason kept: the proxy behind it applies the same rule to what routing does not
    // see (redirect hops) and pins the address it checked.
    await context.route('**/*', async (route) => {
      const requestUrl = route.request().url();
      try {
        await this.options.policy.checkUrl(requestUrl);
      } catch (err) {
        routeRefused.push({ url: requestUrl, reason: (err as Error).message });
        return route.abort('blockedbyclient').catch(() => {});
      }
      return route.continue().catch(() => {});
    });
    return { context, recorder };
  }

  /** The page loaded, or why not: a refused address or hop, an unreachable server, or the time limit. */
  private async load(
    page: Page,
    url: string,
    proxy: GuardedProxy,
    routeRefused: { url: string; reason: string }[],
    timedOut: () => boolean,
    remaining: () => number,
  ): Promise<Response> {
    let response: Response | null;
    try {
      response = await page.goto(url, { waitUntil: 'load', timeout: remaining() });
    } catch (err) {
      const refusal = routeRefused[0] ?? proxy.refused[0];
      if (refusal) throw new CaptureRefused(`${refusal.reason}${refusal.url && refusal.url !== url ? ` (${refusal.url})` : ''}`);
      if (timedOut()) throw new Error(`the page did not load within ${Math.round(this.options.timeoutMs / 1000)} s`);
      throw new Error(`the page could not be loaded: ${firstLine(err)}`);
    }
    if (!response) throw new Error('the browser received no response for the page');
    const refusedHop = response.headers()[REFUSED_HEADER];
    if (refusedHop !== undefined) throw new CaptureRefused(`${decodeURIComponent(refusedHop)} (${response.url()})`);
    const unreachable = response.headers()[UPSTREAM_ERROR_HEADER];
    if (unreachable !== undefined) throw new Error(`the page could not be loaded: ${decodeURIComponent(unreachable)}`);
    return response;
  }

  private scheduleIdleClose() {
    if (this.active > 0) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.close(), this.options.idleCloseMs ?? 60_000);
    this.idleTimer.unref();
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const pending = this.browser;
    this.browser = null;
    const launched = await pending?.catch(() => null);
    await launched?.browser.close().catch(() => {});
    launched?.namespace?.close();
  }
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 500);
}
