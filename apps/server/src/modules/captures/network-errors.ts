/**
 * A failed look-up or connection told in words for the editors who read a capture's reason, with the system's code
 * kept at the end in brackets for whoever has to look further ("... does not exist (ENOTFOUND)").
 */
const IN_WORDS: Record<string, string> = {
  ENOTFOUND: 'no site by that name exists; the address may be mistyped or the site gone',
  EAI_AGAIN: 'the name service did not answer in time',
  EAI_FAIL: 'the name service failed to answer',
  ENODATA: 'the name has no address',
  ESERVFAIL: 'the name service failed to answer',
  ECONNREFUSED: 'the site refused the connection',
  ECONNRESET: 'the site closed the connection',
  ETIMEDOUT: 'the site did not answer in time',
  EHOSTUNREACH: 'the site cannot be reached from here',
  ENETUNREACH: 'the network of the site cannot be reached from here',
  EPIPE: 'the site closed the connection',
  CERT_HAS_EXPIRED: "the site's security certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the site's security certificate is not signed by anyone trusted",
  ERR_TLS_CERT_ALTNAME_INVALID: "the site's security certificate is for another name",
};

/** "<words> (<code>)" for a known code, "<message>" or the code alone otherwise; never empty. */
export function networkErrorInWords(err: unknown): string {
  const { code, message } = (err ?? {}) as NodeJS.ErrnoException;
  if (code && IN_WORDS[code]) return `${IN_WORDS[code]} (${code})`;
  return code ?? (message || 'unknown network error');
}
