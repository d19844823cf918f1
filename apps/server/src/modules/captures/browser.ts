import { accessSync, constants } from 'node:fs';
import type { Browser } from 'playwright-core';
import { CAPTURE_CHROMIUM_FLAGS } from '@app/shared';
import { CaptureRefused, type AddressPolicy } from './address-policy';
import { captureFonts, type CaptureFonts } from './capture-fonts';
import { GuardedProxy } from './guarded-proxy';
import { BrowserNamespace, namespaceSupport } from './network-namespace';
import { captureSettings } from './capture-settings';
import { loadPage, MainDocuments, type CaptureLimits, type DocumentLoad } from './page-documents';
import { ExchangeRecorder, headerHops, headersFile } from './page-traffic';
import { SentHeaders } from './sent-headers';
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
  /** The address and status of the document the screenshot and snapshot show. */
  finalUrl: string;
  httpStatus: number;
  /** The document first loaded, when the page replaced it by another before it was captured; else null. */
  firstLoad: DocumentLoad | null;
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
  fonts: CaptureFonts | null;
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
      const namespace = this.namespace();
      this.isolated = namespace !== null;
      this.browser = this.start(namespace);
      this.browser.catch(() => {
        this.browser = null;
      });
    }
    return this.browser;
  }

  private async start(namespace: BrowserNamespace | null): Promise<LaunchedBrowser> {
    const { chromium } = await import('playwright-core');
    const fonts = await captureFonts(this.options.log);
    const released = () => {
      namespace?.close();
      fonts?.close();
    };
    try {
      const browser = await chromium.launch({
        executablePath: namespace?.executablePath ?? this.options.browserPath,
        env: { ...process.env, ...namespace?.env(), ...fonts?.env },
        headless: true,
        args: [...CAPTURE_CHROMIUM_FLAGS],
        timeout: 30_000,
      });
      browser.on('disconnected', () => {
        this.browser = null;
        released();
      });
      await namespace?.connect();
      const session = await browser.newBrowserCDPSession();
      const { userAgent, product } = await session.send('Browser.getVersion');
      await session.detach();
      // Many sites turn away a browser that calls itself headless; the capture is of what a reader is shown.
      return { browser, userAgent: userAgent.replace('HeadlessChrome', 'Chrome'), version: product, namespace, fonts };
    } catch (err) {
      released();
      throw err;
    }
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
    const routeRefused: { url: string; reason: string }[] = [];
    let context: Awaited<ReturnType<Browser['newContext']>> | null = null;
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      void context?.close().catch(() => {});
    }, this.options.timeoutMs);
    try {
      const launched = await this.launch();
      const { server, release } = await this.proxyFor(proxy, launched.namespace);
      releaseProxy = release;
      const opened = await this.newContext(launched.browser, server, launched.userAgent, routeRefused);
      context = opened.context;
      const limits: CaptureLimits = {
        remaining: () => Math.max(1000, this.options.timeoutMs - (Date.now() - started)),
        timedOut: () => timedOut,
        timeoutMs: this.options.timeoutMs,
      };
      return await this.record(url, launched, opened, proxy, routeRefused, limits);
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

  /** The page loaded and settled, then its screenshot, snapshot and traffic, of the document it shows then. */
  private async record(
    url: string,
    launched: LaunchedBrowser,
    opened: Awaited<ReturnType<PageCapturer['newContext']>>,
    proxy: GuardedProxy,
    routeRefused: { url: string; reason: string }[],
    limits: CaptureLimits,
  ): Promise<PageCapture> {
    const { context, recorder, sentHeaders } = opened;
    const page = await context.newPage();
    await sentHeaders.watch(context, page);
    const documents = new MainDocuments(page);
    await loadPage(page, url, proxy, routeRefused, limits);
    // Images and late requests settle; a page that never goes quiet is captured as it is after a few seconds.
    await page.waitForLoadState('networkidle', { timeout: Math.min(3000, limits.remaining()) }).catch(() => {});
    await page.waitForLoadState('load', { timeout: limits.remaining() }).catch(() => {});
    if (proxy.overLimit) throw new CaptureRefused(proxy.refused.find((r) => !r.url)!.reason);
    // What the screenshot and snapshot show is the document loaded last, which need not be the first.
    const shown = documents.current(routeRefused);
    const { screenshot, snapshot } = await documents.pictures(context, this.options.maxBytes, limits);
    if (limits.timedOut()) throw new Error(`the page was not captured within ${Math.round(this.options.timeoutMs / 1000)} s`);
    const loads = documents.loads();
    const firstLoad = loads.length > 1 ? loads[0]! : null;
    const finalUrl = shown.url();
    const capturedAt = new Date();
    const headers = headersFile({
      requestedUrl: url,
      finalUrl,
      status: shown.status(),
      capturedAt: capturedAt.toISOString(),
      hops: await headerHops(shown.request()),
      documents: loads,
      addressShown: page.url(),
      refused: [...routeRefused, ...proxy.refused],
    });
    const { version, userAgent, namespace, fonts } = launched;
    return {
      capturedAt,
      finalUrl,
      httpStatus: shown.status(),
      firstLoad,
      title: await page.title(),
      snapshot,
      screenshot,
      headers,
      exchanges: await recorder.all(),
      certificates: await proxy.certificates(),
      settings: captureSettings(this.options, { version, userAgent, isolated: namespace !== null, url, finalUrl, firstLoad, fonts: fonts?.families ?? [] }),
    };
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
    const sentHeaders = new SentHeaders();
    const recorder = new ExchangeRecorder(sentHeaders);
    context.on('requestfinished', (request) => recorder.finished(request));
    context.on('page', (opened) => void sentHeaders.watch(context, opened).catch(() => {}));
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
    return { context, recorder, sentHeaders };
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
    launched?.fonts?.close();
  }
}
