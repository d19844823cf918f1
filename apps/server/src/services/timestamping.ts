import { createHash, randomBytes, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/**
 * RFC 3161 time-stamps: a time-stamping authority (TSA_URL) signs "these bytes existed at this time" over the SHA-256
 * of a statement the site sends it (only the hash leaves the site). Every token is checked with pkijs when it
 * arrives and whenever it is read again: it must name exactly that hash (and, on receipt, the nonce sent), carry a
 * signature that verifies with the signing certificate it holds, that certificate must be for time-stamping and,
 * when the operator named the authorities they trust (TSA_CA_FILE), chain to one of them, valid at the time stated.
 * Without TSA_CA_FILE the chain is not checked, and the answer says so. The token is standard, so
 * `openssl ts -verify` checks it too.
 */

const SHA256_OID = '2.16.840.1.101.3.4.2.1';
const TIME_STAMPING_EKU = '1.3.6.1.5.5.7.3.8';
const EXTENDED_KEY_USAGE = '2.5.29.37';
let engineReady = false;

function useNodeCrypto(): void {
  if (engineReady) return;
  pkijs.setEngine('node', new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'] }));
  engineReady = true;
}

/** The authorities whose certificates a time-stamp must chain to; `null` certificates: the chain is not checked. */
export class TimestampTrust {
  private constructor(readonly certificates: pkijs.Certificate[] | null) {}

  static readonly unchecked = new TimestampTrust(null);

  /** The certificates of a PEM bundle (TSA_CA_FILE's text); throws when it holds none or one does not parse. */
  static fromPem(pem: string): TimestampTrust {
    const blocks = [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)];
    if (!blocks.length) throw new Error('TSA_CA_FILE: holds no PEM certificate');
    return new TimestampTrust(blocks.map((m) => pkijs.Certificate.fromBER(new Uint8Array(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64')))));
  }
}

/** How a token that verified was checked: `trusted` its certificate chains to TSA_CA_FILE, `not-checked` no chain was asked. */
export type TimestampChain = 'trusted' | 'not-checked';

export interface VerifiedTimestamp {
  time: Date;
  chain: TimestampChain;
  /** The signing certificate's subject, as the token names it (e.g. "CN=Some TSA, O=Some authority"). */
  authority: string;
}

/** A token came back but does not verify: recorded as a failure, never as a time-stamp. */
export class TimestampRejected extends Error {
  constructor(
    message: string,
    readonly token: Buffer,
  ) {
    super(message);
    this.name = 'TimestampRejected';
  }
}

function timestampRequest(digest: Buffer, nonce: Buffer): Buffer {
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256_OID, algorithmParams: new asn1js.Null() }),
      hashedMessage: new asn1js.OctetString({ valueHex: new Uint8Array(digest) }),
    }),
    nonce: new asn1js.Integer({ valueHex: new Uint8Array(nonce) }),
    certReq: true,
  });
  return Buffer.from(request.toSchema().toBER());
}

/**
 * Asks `tsaUrl` to time-stamp the SHA-256 of `data`; returns the token (DER) once it verifies (for that hash and
 * nonce, against `trust`). A token that does not verify is thrown as TimestampRejected; an authority that cannot be
 * reached or refuses, as a plain Error.
 */
export async function requestTimestamp(
  tsaUrl: string,
  data: Buffer,
  trust: TimestampTrust = TimestampTrust.unchecked,
): Promise<{ token: Buffer } & VerifiedTimestamp> {
  const digest = createHash('sha256').update(data).digest();
  // A positive nonce: its first bit clear, so the INTEGER reads back with the same bytes.
  const nonce = randomBytes(8);
  nonce[0] = (nonce[0]! & 0x7f) | 0x01;
  const res = await fetch(tsaUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/timestamp-query' },
    body: new Uint8Array(timestampRequest(digest, nonce)),
    signal: AbortSignal.timeout(15_000),
  });
  if (!res.ok) throw new Error(`the time-stamping authority answered ${res.status}`);
  let response: pkijs.TimeStampResp;
  try {
    response = pkijs.TimeStampResp.fromBER(await res.arrayBuffer());
  } catch {
    throw new Error('the time-stamping authority answered something that is not a time-stamp response');
  }
  // 0: granted, 1: granted with modifications; anything else is a refusal.
  if (response.status.status > 1 || !response.timeStampToken) throw new Error(`the time-stamping authority refused (status ${response.status.status})`);
  const token = Buffer.from(response.timeStampToken.toSchema().toBER());
  try {
    const verified = await verifyTimestamp(token, data, trust);
    const answeredNonce = tstInfoOf(token).nonce;
    if (!answeredNonce || !Buffer.from(answeredNonce.valueBlock.valueHexView).equals(nonce)) {
      throw new Error('the time-stamp token does not answer this request (its nonce differs)');
    }
    return { token, ...verified };
  } catch (err) {
    throw new TimestampRejected((err as Error).message, token);
  }
}

function signedDataOf(token: Buffer): pkijs.SignedData {
  try {
    const contentInfo = pkijs.ContentInfo.fromBER(new Uint8Array(token));
    return new pkijs.SignedData({ schema: contentInfo.content });
  } catch {
    throw new Error('the time-stamp token cannot be read');
  }
}

function tstInfoOf(token: Buffer): pkijs.TSTInfo {
  const content = signedDataOf(token).encapContentInfo.eContent;
  if (!content) throw new Error('the time-stamp token holds no time-stamp');
  return pkijs.TSTInfo.fromBER(content.getValue());
}

function subjectOf(cert: pkijs.Certificate): string {
  return cert.subject.typesAndValues
    .map((tv) => `${({ '2.5.4.3': 'CN', '2.5.4.10': 'O', '2.5.4.6': 'C', '2.5.4.11': 'OU' } as Record<string, string>)[tv.type] ?? tv.type}=${tv.value.valueBlock.value}`)
    .join(', ');
}

/**
 * The time a token states for `data`, with how it was checked; throws when the token is for other data, its signature
 * does not verify, its certificate is not a time-stamping one, or (with trusted certificates) it does not chain to one
 * of them at the time it states.
 */
export async function verifyTimestamp(token: Buffer, data: Buffer, trust: TimestampTrust = TimestampTrust.unchecked): Promise<VerifiedTimestamp> {
  useNodeCrypto();
  const digest = createHash('sha256').update(data).digest();
  const signed = signedDataOf(token);
  const info = tstInfoOf(token);
  if (info.messageImprint.hashAlgorithm.algorithmId !== SHA256_OID) throw new Error('the time-stamp token is not over a SHA-256 hash');
  if (!Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView).equals(digest)) {
    throw new Error('the time-stamp token is for other data');
  }
  // pkijs checks the token's hash of `data` again, the signature with the certificate the token carries, and with
  // trusted certificates the chain from it to one of them, at the time the token states.
  const result = await signed
    .verify({
      signer: 0,
      data: new Uint8Array(data).buffer,
      extendedMode: true,
      checkChain: trust.certificates !== null,
      trustedCerts: trust.certificates ?? [],
      checkDate: info.genTime,
    })
    .catch((err: unknown) => err as { signatureVerified?: boolean | null; message?: string; signerCertificateVerified?: boolean });
  if (!result.signatureVerified) {
    if (trust.certificates && result.signatureVerified !== false && result.signerCertificateVerified === false) {
      throw new Error(`the time-stamp's certificate does not chain to an authority in TSA_CA_FILE at the time it states${result.message ? ` (${result.message})` : ''}`);
    }
    throw new Error("the time-stamp token's signature does not verify");
  }
  const cert = (result as pkijs.SignedDataVerifyResult).signerCertificate;
  if (!cert) throw new Error('the time-stamp token carries no signing certificate');
  const eku = cert.extensions?.find((e) => e.extnID === EXTENDED_KEY_USAGE);
  const purposes = (eku?.parsedValue as pkijs.ExtKeyUsage | undefined)?.keyPurposes ?? [];
  if (!purposes.includes(TIME_STAMPING_EKU)) throw new Error("the time-stamp token's certificate is not a time-stamping certificate");
  if (info.genTime < cert.notBefore.value || info.genTime > cert.notAfter.value) {
    throw new Error("the time-stamp token states a time outside its certificate's validity");
  }
  return { time: info.genTime, chain: trust.certificates ? 'trusted' : 'not-checked', authority: subjectOf(cert) };
}
