const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Where plain http on a non-localhost origin must go instead, or null to stay. */
export function httpsRedirectTarget(location: { protocol: string; hostname: string; href: string }): string | null {
  const local = LOCAL_HOSTS.has(location.hostname) || location.hostname.endsWith('.localhost');
  if (location.protocol !== 'http:' || local) return null;
  return location.href.replace(/^http:/, 'https:');
}
