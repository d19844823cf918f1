import { solveChallenge } from 'altcha-lib/v1';
import type { FastifyInstance } from 'fastify';

/** Helpers of the testimony tests: a solved proof of work, and multipart bodies as a witness's form sends them. */

export async function solvedAltcha(app: FastifyInstance): Promise<string> {
  const challenge = (await app.inject({ method: 'GET', url: '/api/v1.0.0/testimonies/challenge' })).json();
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
  return Buffer.from(JSON.stringify({ algorithm: challenge.algorithm, challenge: challenge.challenge, number: solution!.number, salt: challenge.salt, signature: challenge.signature })).toString('base64');
}

/** A PNG signature followed by `marker`: recognised as an image by its first bytes. */
export function markedPng(marker: string): Buffer {
  return Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(100_000, 7), Buffer.from(marker)]);
}

export function multipart(fields: Record<string, string | string[]>, files: { name: string; body: Buffer; type?: string }[] = []) {
  const boundary = `----sample${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    for (const v of Array.isArray(value) ? value : [value]) parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="${f.name}"\r\ncontent-type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`));
    parts.push(f.body, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
