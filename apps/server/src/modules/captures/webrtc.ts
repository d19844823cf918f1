/**
 * Runs in every frame of a captured page before its own scripts (Playwright's init scripts reach iframes and popups
 * too): removes WebRTC and WebTransport, which send UDP straight to addresses a page chooses (STUN, TURN, ICE checks,
 * QUIC), around the proxy that checks every connection. Workers are not reached by init scripts and need nothing:
 * Chromium exposes neither RTCPeerConnection nor a way to make one in a worker, and WebTransport there still meets
 * `--disable-quic` and, where the platform allows, a network namespace with nowhere to send to.
 */
export function removeWebRtc(): void {
  const removed = /^(RTC|webkitRTC|WebTransport)/;
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    if (removed.test(name)) delete (globalThis as Record<string, unknown>)[name];
  }
}
