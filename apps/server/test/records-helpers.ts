import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { expect } from 'vitest';
import { API_BASE, dataFields, type CategoryDef, type RecordDto } from '@app/shared';
import { call } from './helpers';

/** Test-only helpers for the records API tests: multipart bodies, a small real image, sample field values. */

interface FilePart {
  field: string;
  filename: string;
  type: string;
  data: Buffer;
}

/** A multipart/form-data body; `filesFirst` puts the files before the text fields. */
export function multipart(fields: Record<string, string>, files: FilePart[] = [], { filesFirst = false } = {}) {
  const boundary = `----records-test-${randomBytes(8).toString('hex')}`;
  const fieldChunks = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  const fileChunks = files.flatMap((f) => [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`),
    f.data,
    Buffer.from('\r\n'),
  ]);
  const chunks = filesFirst ? [...fileChunks, ...fieldChunks] : [...fieldChunks, ...fileChunks];
  return {
    payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A small PNG made by sharp; `seed` changes its colour so each image has its own hash. */
export async function testImage(seed = 0): Promise<Buffer> {
  return sharp({ create: { width: 16, height: 12, channels: 3, background: { r: (seed * 37) % 256, g: 80, b: 120 } } })
    .png()
    .toBuffer();
}

/** An uncompressed PNG of noise, `side` pixels square, that stays large (over 1 MB from about 600 px). */
export async function bigTestImage(side: number): Promise<Buffer> {
  const noise = Buffer.alloc(side * side * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  return sharp(noise, { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
}

/** Valid sample values (strings, as a form sends them) for every data field of a category. Test content only. */
export function sampleFields(category: CategoryDef, label = 'Sample'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of dataFields(category)) {
    switch (field.kind) {
      case 'text': {
        const text = `${label} ${field.name} (test data)`;
        // A short field (an ACLED id: 40) gets a shorter value that still says it is a test.
        out[field.name] = field.max && text.length > field.max ? `Test ${field.name}`.slice(0, field.max) : text;
        break;
      }
      case 'markdown':
        out[field.name] = `**${label}** test description, not real data.`;
        break;
      case 'datetime':
      case 'date':
        out[field.name] = '2021-03-04T05:06:07';
        break;
      case 'quantity':
        out[field.name] = '12';
        break;
      case 'region':
        out[field.name] = 'amhara';
        break;
      case 'url':
        out[field.name] = 'https://example.org/sample-test-page';
        break;
      case 'urlList':
        out[field.name] = 'https://example.org/evidence-a, https://example.org/evidence-b';
        break;
      case 'sources':
        // No link: a cited link is captured, and tests that count captures make their own.
        out[field.name] = JSON.stringify([{ kind: 'media', title: `${label} source (test data)` }]);
        break;
      case 'coordinate':
        out[field.name] = field.axis === 'latitude' ? '11.5' : '37.5';
        break;
      case 'choice':
        out[field.name] = field.options![0]!;
        break;
      // An incident is a record of its own: tests that link one make it first.
    }
  }
  return out;
}

/** The multipart file field that carries images for a category, if it takes images. */
export function imageField(category: CategoryDef): string | null {
  if (category.media === 'image') return 'image';
  if (category.media === 'images') return 'files[]';
  return null;
}

/** A record created through the API (a JSON body) by `auth`, its description marking it as test data; asserts 201. */
export async function createTestRecord(app: FastifyInstance, auth: Record<string, string>, category: string, fields: Record<string, unknown>): Promise<RecordDto> {
  const res = await call(app, { method: 'POST', url: `${API_BASE}/${category}`, headers: auth, payload: { description: 'Test data, not a real record.', ...fields } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as RecordDto;
}
