import { createHash, randomBytes, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/**
 * RFC 3161 time-stamps: a time-stamping authority (TSA_URL) signs "these bytes existed at this time" over the SHA-256
 * of a statement the site sends it (only the hash leaves the site). The token is kept beside an audit checkpoint and checked with pkijs: it must name exactly that
 * hash and carry a signature that verifies with the authority's certificate inside it. Whether that certificate
 * belongs to an authority one trusts is for the reader to judge (docs/audit.md says so); the token is standard, so
 * `openssl ts -verify` checks it too.
 */

const SHA256_OID = '2.16.840.1.101.3.4.2.1';
let engineReady = false;

function useNodeCrypto(): void {
  if (engineReady) return;
  pkijs.setEngine('node', new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'] }));
  engineReady = true;
}

function timestampRequest(digest: Buffer): Buffer {
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256_OID, algorithmParams: new asn1js.Null() }),
      hashedMessage: new asn1js.OctetString({ valueHex: new Uint8Array(digest) }),
    }),
    nonce: new asn1js.Integer({ valueHex: new Uint8Array(randomBytes(8)) }),
    certReq: true,
  });
  return Buffer.from(request.toSchema().toBER());
}

/** Asks `tsaUrl` to time-stamp `digest`; returns the token (DER) once it verifies, and the time it states. */
export async function requestTimestamp(tsaUrl: string, data: Buffer): Promise<{ token: Buffer; time: Date }> {
  const digest = createHash('sha256').update(data).digest();
  const res = await fetch(tsaUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/timestamp-query' },
    body: new Uint8Array(timestampRequest(digest)),
    signal: AbortSignal.timeout(15_000),
  });
  if (!res.ok) throw new Error(`the time-stamping authority answered ${res.status}`);
  const response = pkijs.TimeStampResp.fromBER(await res.arrayBuffer());
  // 0: granted, 1: granted with modifications; anything else is a refusal.
  if (response.status.status > 1 || !response.timeStampToken) throw new Error(`the time-stamping authority refused (status ${response.status.status})`);
  const token = Buffer.from(response.timeStampToken.toSchema().toBER());
  return { token, time: await verifyTimestamp(token, data) };
}

/** The time a token states for `data`; throws when the token is for other data or its signature does not verify. */
export async function verifyTimestamp(token: Buffer, data: Buffer): Promise<Date> {
  useNodeCrypto();
  const digest = createHash('sha256').update(data).digest();
  const contentInfo = pkijs.ContentInfo.fromBER(new Uint8Array(token).buffer);
  const signed = new pkijs.SignedData({ schema: contentInfo.content });
  const content = signed.encapContentInfo.eContent;
  if (!content) throw new Error('the time-stamp token holds no time-stamp');
  const info = pkijs.TSTInfo.fromBER(content.getValue());
  if (!Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView).equals(digest)) {
    throw new Error('the time-stamp token is for other data');
  }
  // pkijs checks the token's hash of `data` again, and the signature with the certificate the token carries.
  const verified = await signed.verify({ signer: 0, checkChain: false, data: new Uint8Array(data).buffer }).catch(() => false);
  if (!verified) throw new Error("the time-stamp token's signature does not verify");
  return info.genTime;
}
