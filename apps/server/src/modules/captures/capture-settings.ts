import type { CapturerOptions } from './browser';

/** The browser and the settings a capture was made with, for the archive's warcinfo record. */
export function captureSettings(
  options: Pick<CapturerOptions, 'timeoutMs' | 'maxBytes' | 'webrtc'>,
  made: { version: string; userAgent: string; isolated: boolean; url: string; finalUrl: string; firstLoad: { url: string; status: number } | null; fonts: string[] },
): Record<string, string> {
  return {
    browser: made.version,
    'user-agent': made.userAgent,
    viewport: '1280x900',
    'wait-until': 'load, then network idle (at most 3 s)',
    'timeout-seconds': String(Math.round(options.timeoutMs / 1000)),
    'max-bytes': String(options.maxBytes),
    'service-workers': 'blocked',
    webrtc: options.webrtc === 'keep' ? 'kept' : 'removed',
    'network-isolation': made.isolated ? 'own network namespace, guarded proxy' : 'guarded proxy',
    'requested-url': made.url,
    'final-url': made.finalUrl,
    ...(made.firstLoad ? { 'first-loaded-url': `${made.firstLoad.url} (${made.firstLoad.status}), replaced by the page itself before the capture` } : {}),
    'fonts-added': made.fonts.length ? made.fonts.join(', ') : 'none',
  };
}
