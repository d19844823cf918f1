import dgram from 'node:dgram';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy } from '../src/modules/captures/address-policy';
import { browserAvailable, PageCapturer } from '../src/modules/captures/browser';
import { namespaceSupport } from '../src/modules/captures/network-namespace';

/**
 * The capture browser sends no UDP (issue 37 item 2): pages this test serves on loopback try WebRTC's three ways of
 * sending packets to an address they choose, here a UDP listener on loopback that must receive nothing. Each guard is
 * checked alone (WebRTC removed from the page; the browser in a network namespace), and a control run without either
 * shows that the same pages do send packets, so a quiet listener means the guards held. Test content only.
 */

const browserPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveBrowser = browserAvailable(browserPath);
const namespaces = namespaceSupport();

/** Each page's script: it ends by naming what it did in the title, which the capture reports. */
const attempts = (udpPort: number): Record<string, string> => ({
  // ICE connectivity checks to the candidate of a remote description the page wrote itself.
  'remote-description': `
    const fingerprint = Array(32).fill('AB').join(':');
    const offer = ['v=0', 'o=- 1 1 IN IP4 127.0.0.1', 's=-', 't=0 0', 'a=group:BUNDLE 0',
      'm=application 9 UDP/DTLS/SCTP webrtc-datachannel', 'c=IN IP4 127.0.0.1', 'a=ice-ufrag:test', 'a=ice-pwd:testtesttesttesttesttest',
      'a=fingerprint:sha-256 ' + fingerprint, 'a=setup:actpass', 'a=mid:0', 'a=sctp-port:5000',
      'a=candidate:1 1 udp 2122260223 127.0.0.1 ${udpPort} typ host', ''].join('\\r\\n');
    const pc = new RTCPeerConnection();
    await pc.setRemoteDescription({ type: 'offer', sdp: offer });
    await pc.setLocalDescription(await pc.createAnswer());`,
  // A STUN binding request to a server the page names.
  stun: `
    const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${udpPort}' }] });
    pc.createDataChannel('test');
    await pc.setLocalDescription(await pc.createOffer());`,
  // A TURN allocation over UDP.
  'turn-udp': `
    const pc = new RTCPeerConnection({ iceServers: [{ urls: 'turn:127.0.0.1:${udpPort}?transport=udp', username: 'test', credential: 'test' }] });
    pc.createDataChannel('test');
    await pc.setLocalDescription(await pc.createOffer());`,
  // The same from a fresh iframe's window, made before any of its own documents loaded.
  'iframe-stun': `
    const frame = document.body.appendChild(document.createElement('iframe'));
    const pc = new frame.contentWindow.RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${udpPort}' }] });
    pc.createDataChannel('test');
    await pc.setLocalDescription(await pc.createOffer());`,
  // QUIC from a worker, where init scripts do not reach.
  'worker-webtransport': `
    const source = "try { new WebTransport('https://127.0.0.1:${udpPort}/').closed.catch(() => {}); } catch (e) {} postMessage('done')";
    const worker = new Worker(URL.createObjectURL(new Blob([source])));
    await new Promise((resolve) => (worker.onmessage = resolve));`,
});

const WEBRTC_VARIANTS = ['remote-description', 'stun', 'turn-udp', 'iframe-stun'];

describe.skipIf(!haveBrowser)(`the capture browser and UDP${haveBrowser ? '' : ` (skipped: no browser at ${browserPath})`}`, () => {
  let udp: dgram.Socket;
  let site: http.Server;
  let base = '';
  const received: string[] = [];
  let pages: Record<string, string> = {};

  beforeAll(async () => {
    udp = dgram.createSocket('udp4');
    udp.on('message', (message, from) => received.push(`${message.length} bytes from ${from.address}:${from.port}`));
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    pages = attempts(udp.address().port);
    site = http.createServer((req, res) => {
      const script = pages[(req.url ?? '/').slice(1)];
      if (!script) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        `<!doctype html><title>loaded</title><h1>Test content: a page that sends UDP</h1>
         <script>(async () => { try { ${script} document.title = 'attempted'; } catch (e) { document.title = 'failed: ' + e.message; } })();</script>`,
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    udp?.close();
    site?.close();
  });

  const capturer = (options: Pick<ConstructorParameters<typeof PageCapturer>[0], 'isolation' | 'webrtc'>) =>
    new PageCapturer({ browserPath, timeoutMs: 30_000, maxBytes: 20 * 1024 * 1024, policy: new AddressPolicy([new URL(base).host]), ...options });

  /** Captures every page with `options`; the titles the pages ended with, and the packets the listener got. */
  async function captureAll(options: Parameters<typeof capturer>[0]) {
    const browser = capturer(options);
    received.length = 0;
    const titles: Record<string, string> = {};
    try {
      for (const name of Object.keys(pages)) titles[name] = (await browser.capture(`${base}/${name}`)).title;
      return { titles, packets: [...received], isolated: browser.isolated };
    } finally {
      await browser.close();
    }
  }

  it('control: without the guards, the same pages do send UDP to the listener', async () => {
    const { titles, packets } = await captureAll({ isolation: 'none', webrtc: 'keep' });
    for (const name of WEBRTC_VARIANTS) expect(titles[name], name).toBe('attempted');
    expect(packets.length).toBeGreaterThan(0);
  });

  it('with WebRTC removed from every frame before the page runs, nothing is sent (the guard left without a namespace)', async () => {
    const { titles, packets, isolated } = await captureAll({ isolation: 'none' });
    expect(isolated).toBe(false);
    for (const name of WEBRTC_VARIANTS) expect(titles[name], name).toMatch(/^failed: .*(RTCPeerConnection|not a constructor)/);
    expect(packets).toEqual([]);
  });

  it.skipIf(!namespaces.ok)(
    `in a network namespace of its own, even a page that keeps WebRTC sends nothing${namespaces.ok ? '' : ` (skipped: ${namespaces.ok || namespaces.reason})`}`,
    async () => {
      const { titles, packets, isolated } = await captureAll({ webrtc: 'keep' });
      expect(isolated).toBe(true);
      // The pages were captured through the forwarded proxy and their WebRTC code ran: only the namespace held.
      for (const name of WEBRTC_VARIANTS) expect(titles[name], name).toBe('attempted');
      expect(packets).toEqual([]);
    },
    120_000,
  );

  it.skipIf(!namespaces.ok)('as the site runs it (namespace and WebRTC removed), pages are captured and nothing is sent', async () => {
    const browser = capturer({});
    received.length = 0;
    try {
      const page = await browser.capture(`${base}/stun`);
      expect(browser.isolated).toBe(true);
      expect(page.httpStatus).toBe(200);
      expect(page.title).toMatch(/^failed: /);
      expect(received).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
