import { webcrypto } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/**
 * A time-stamping authority for the tests, on loopback: answers RFC 3161 requests with tokens signed by a
 * self-signed test certificate (ECDSA P-256), as a real authority signs with its own. `time` fixes the stated time.
 */
export async function startFakeTsa(options: { time?: Date } = {}) {
  pkijs.setEngine('test-tsa', new pkijs.CryptoEngine({ name: 'test-tsa', crypto: webcrypto as never }));
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const generated = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  // pkijs is typed with the DOM's CryptoKey; Node's webcrypto keys are the same objects.
  const keys = generated as unknown as { publicKey: never; privateKey: never };

  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({ value: 7 });
  const name = new pkijs.AttributeTypeAndValue({ type: '2.5.4.3', value: new asn1js.Utf8String({ value: 'Test TSA, not a real authority' }) });
  cert.issuer.typesAndValues.push(name);
  cert.subject.typesAndValues.push(name);
  // Valid at the time it states (a fixed time may be in the past): a token outside its certificate's validity is refused.
  const from = Math.min(Date.now(), options.time?.getTime() ?? Date.now());
  cert.notBefore.value = new Date(from - 86_400_000);
  cert.notAfter.value = new Date(Date.now() + 86_400_000);
  // extendedKeyUsage: id-kp-timeStamping, critical, as RFC 3161 requires of a TSA certificate.
  cert.extensions = [
    new pkijs.Extension({
      extnID: '2.5.29.37',
      critical: true,
      extnValue: new pkijs.ExtKeyUsage({ keyPurposes: ['1.3.6.1.5.5.7.3.8'] }).toSchema().toBER(false),
      parsedValue: new pkijs.ExtKeyUsage({ keyPurposes: ['1.3.6.1.5.5.7.3.8'] }),
    }),
  ];
  await cert.subjectPublicKeyInfo.importKey(keys.publicKey);
  await cert.sign(keys.privateKey, 'SHA-256');

  let serial = 1;
  const answer = async (body: Buffer): Promise<Buffer> => {
    const request = pkijs.TimeStampReq.fromBER(new Uint8Array(body).buffer);
    const info = new pkijs.TSTInfo({
      version: 1,
      policy: '1.2.3.4.1',
      messageImprint: request.messageImprint,
      serialNumber: new asn1js.Integer({ value: serial++ }),
      genTime: options.time ?? new Date(),
      ...(request.nonce ? { nonce: request.nonce } : {}),
    });
    // Set after construction: given to the constructor, pkijs turns the content into a constructed (BER) string,
    // which real authorities do not send and pkijs's own check of a TSTInfo cannot read.
    const encapsulated = new pkijs.EncapsulatedContentInfo({ eContentType: '1.2.840.113549.1.9.16.1.4' });
    encapsulated.eContent = new asn1js.OctetString({ valueHex: info.toSchema().toBER(false) });
    const signed = new pkijs.SignedData({
      version: 3,
      encapContentInfo: encapsulated,
      signerInfos: [
        new pkijs.SignerInfo({
          version: 1,
          sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
        }),
      ],
      certificates: [cert],
    });
    await signed.sign(keys.privateKey, 0, 'SHA-256');
    const token = new pkijs.ContentInfo({ contentType: '1.2.840.113549.1.7.2', content: signed.toSchema(true) });
    const response = new pkijs.TimeStampResp({ status: new pkijs.PKIStatusInfo({ status: 0 }), timeStampToken: token });
    return Buffer.from(response.toSchema().toBER(false));
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      answer(Buffer.concat(chunks)).then(
        (body) => res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(body),
        (err: Error) => res.writeHead(400).end(err.message),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
