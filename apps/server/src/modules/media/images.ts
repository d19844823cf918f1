import type exifReader from 'exif-reader';
import type { RestrictedMediaInfo } from '@app/shared';
import { newPublicKey } from './public-access';
import type { Storage } from './storage';

/**
 * sharp (with libvips) and the EXIF reader, loaded with the first image rather than at start: a server that only
 * answers reads keeps that memory free (the memory target; docs/performance.md).
 */
export async function loadSharp() {
  return (await import('sharp')).default;
}

/** Widths of the public copies; none is wider than the original (a small original gets one copy at its own width). */
const VARIANT_WIDTHS = [320, 640, 1280] as const;
type VariantFormat = 'webp' | 'avif' | 'jpeg';
const EXT: Record<VariantFormat, string> = { webp: 'webp', avif: 'avif', jpeg: 'jpg' };
const CONTENT_TYPE: Record<VariantFormat, string> = { webp: 'image/webp', avif: 'image/avif', jpeg: 'image/jpeg' };

interface StoredVariant {
  width: number;
  format: VariantFormat;
  key: string;
}

interface PublicImage {
  /** Size after auto-rotation, i.e. as displayed. */
  width: number;
  height: number;
  variants: StoredVariant[];
  /**
   * The copy `imageUrl` points to: the widest JPEG. JPEG because link-preview crawlers and older browsers that
   * read `imageUrl` directly may not show WebP or AVIF; pages use `variants` in a srcset for the modern formats.
   */
  mainKey: string;
}

/** What the original's metadata says about where, when and with what it was taken: for signed-in editors only. */
export type RestrictedInfo = RestrictedMediaInfo;

export class UnreadableImageError extends Error {}

function variantWidths(originalWidth: number): number[] {
  const widths = VARIANT_WIDTHS.filter((w) => w < originalWidth) as number[];
  widths.push(Math.min(originalWidth, Math.max(...VARIANT_WIDTHS)));
  return [...new Set(widths)];
}

/**
 * Makes the public copies of an image: auto-rotated, resized, in WebP, AVIF and JPEG, with every metadata block
 * (EXIF, GPS, XMP, IPTC, ICC) left out - sharp writes none unless asked to. Names are random (see newPublicKey) and
 * never reused, so a name's bytes never change. Animated images keep their first frame.
 */
export async function makePublicImage(input: string | Buffer, storage: Storage): Promise<PublicImage> {
  const { width, height, encoded } = await encodeVariants(input);
  const variants: StoredVariant[] = [];
  try {
    for (const { width: w, format, bytes } of encoded) {
      const key = newPublicKey(EXT[format], `-${w}`);
      await storage.put(key, bytes, CONTENT_TYPE[format]);
      variants.push({ width: w, format, key });
    }
  } catch (err) {
    // A store that fills up (or turns read-only) halfway keeps none of the copies nothing will name.
    for (const { key } of variants) await storage.delete(key).catch(() => {});
    throw err;
  }
  const widest = Math.max(...variants.map((v) => v.width));
  const main = variants.find((v) => v.format === 'jpeg' && v.width === widest)!;
  return { width, height, variants, mainKey: main.key };
}

/**
 * Images are decoded one at a time in a process. A few hundred KB of PNG can declare 16,000 x 16,000 pixels (within
 * sharp's 268-megapixel limit, as a 200-megapixel phone photo is); several such uploads at once took hundreds of MB
 * (test/security/uploads.test.ts, docs/performance.md). In turn, the memory needed stays that of one image, however many uploads arrive
 * together; uploads are rare and each takes a second or two.
 */
let decoding: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = decoding.then(work, work);
  decoding = run.catch(() => undefined);
  return run;
}

/** Decodes and encodes every copy in memory (they are small); any decoding failure means the bytes are unusable. */
function encodeVariants(input: string | Buffer) {
  return oneAtATime(() => encodeVariantsNow(input));
}

async function encodeVariantsNow(input: string | Buffer) {
  const sharp = await loadSharp();
  try {
    const meta = await sharp(input).metadata();
    // The size as displayed, after the EXIF orientation is applied.
    const { width, height } = meta.autoOrient ?? meta;
    if (!width || !height) throw new Error('no dimensions');
    const encoded: { width: number; format: VariantFormat; bytes: Buffer }[] = [];
    const widths = variantWidths(width);
    // The original is decoded once, to the widest copy's size; every copy is made from those pixels. Decoding it
    // for each copy (three formats at each width, at once) held several full-size decodes in memory together.
    const { data, info } = await sharp(input, { failOn: 'error' })
      .autoOrient()
      .resize({ width: Math.max(...widths), withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixels = { raw: { width: info.width, height: info.height, channels: info.channels } };
    for (const w of widths) {
      const resized = sharp(data, pixels).resize({ width: w, withoutEnlargement: true });
      const [webp, avif, jpeg] = await Promise.all([
        resized.clone().webp({ quality: 80 }).toBuffer(),
        resized.clone().avif({ quality: 50, effort: 2 }).toBuffer(),
        resized.clone().flatten({ background: '#ffffff' }).jpeg({ quality: 82, progressive: true }).toBuffer(),
      ]);
      encoded.push({ width: w, format: 'webp', bytes: webp }, { width: w, format: 'avif', bytes: avif }, { width: w, format: 'jpeg', bytes: jpeg });
    }
    return { width, height, encoded };
  } catch (err) {
    throw new UnreadableImageError(err instanceof Error ? err.message : String(err));
  }
}

/** Capture time, GPS position and device from the original's EXIF; null when it has none of them. */
export async function readRestrictedInfo(input: string | Buffer): Promise<RestrictedInfo | null> {
  let exif: ReturnType<typeof exifReader>;
  try {
    const [sharp, { default: readExif }] = await Promise.all([loadSharp(), import('exif-reader')]);
    const meta = await sharp(input).metadata();
    if (!meta.exif) return null;
    exif = readExif(meta.exif);
  } catch {
    // Broken EXIF does not stop the upload; there is just nothing to keep.
    return null;
  }
  const info: RestrictedInfo = {};
  const captured = exif.Photo?.DateTimeOriginal ?? exif.Photo?.DateTimeDigitized ?? exif.Image?.DateTime;
  if (captured instanceof Date && !Number.isNaN(captured.getTime())) info.capturedAt = captured.toISOString();
  const gps = exif.GPSInfo;
  const lat = toDegrees(gps?.GPSLatitude, gps?.GPSLatitudeRef);
  const lon = toDegrees(gps?.GPSLongitude, gps?.GPSLongitudeRef);
  if (lat !== null && lon !== null) {
    info.gps = { latitude: lat, longitude: lon };
    if (typeof gps?.GPSAltitude === 'number') info.gps.altitude = gps.GPSAltitudeRef === 1 ? -gps.GPSAltitude : gps.GPSAltitude;
  }
  if (typeof exif.Image?.Make === 'string') info.make = exif.Image.Make.trim();
  if (typeof exif.Image?.Model === 'string') info.model = exif.Image.Model.trim();
  if (typeof exif.Image?.Software === 'string') info.software = exif.Image.Software.trim();
  return Object.keys(info).length ? info : null;
}

function toDegrees(dms: unknown, ref: unknown): number | null {
  if (!Array.isArray(dms) || dms.length < 1 || dms.some((n) => typeof n !== 'number' || !Number.isFinite(n))) return null;
  const [d = 0, m = 0, s = 0] = dms as number[];
  const value = d + m / 60 + s / 3600;
  if (value > 180) return null;
  const negative = ref === 'S' || ref === 'W';
  return Math.round((negative ? -value : value) * 1e7) / 1e7;
}
