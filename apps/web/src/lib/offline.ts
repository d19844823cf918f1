/**
 * The web app's side of offline reading (apps/web/sw, docs/offline.md): the service worker keeps nothing for a signed-in
 * reader and forgets what it kept whenever a reader signs in or out. Sign-in and sign-out call this (whatever keeps the
 * session: a token now, a cookie later); it resolves once the copies are gone, or at once without a service worker.
 */
export async function tellOfflineCopies(signedIn: boolean): Promise<void> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const registration = await navigator.serviceWorker.getRegistration().catch(() => undefined);
  const worker = registration?.active;
  if (!worker) return;
  await new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    worker.postMessage({ type: 'session', signedIn }, [channel.port2]);
    // A worker that does not answer (being replaced) must not hold up signing in.
    setTimeout(resolve, 2000);
  });
}
