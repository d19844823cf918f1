import { Readable } from 'node:stream';
import { CATEGORIES, type CategorySlug } from '@app/shared';
import { loadSharp } from './images';
import type { MediaService } from './service';

/** Muted flat colours, one per image slot, so sample pictures are told apart and never mistaken for evidence. */
const COLOURS = ['#5b6f82', '#7d6a55', '#58755f', '#7a5c6e', '#6b6f3f', '#4f6f75', '#80604a', '#5f5a82', '#6e7a84', '#845c5c', '#55786c'];

/**
 * A flat colour with the word SAMPLE, rendered by sharp from SVG: labelled content, no real place or person. The word
 * fits a square crop of the 16:9 picture (cards and thumbnails crop to 4:3 or 1:1), so it is never cut.
 */
async function sampleImage(colour: string): Promise<Buffer> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360"><rect width="100%" height="100%" fill="${colour}"/>` +
    '<text x="50%" y="50%" dominant-baseline="middle" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" ' +
    'font-weight="bold" font-size="72" fill="#ffffff" fill-opacity="0.85">SAMPLE</text></svg>';
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * Attaches sample pictures to sample records of categories that show images: one for a single-image category, two
 * for a gallery. Records of a category share their pictures (stored and processed once, the copies reused).
 */
export async function attachSampleImages(
  mediaService: MediaService,
  rows: { id: string; category: string }[],
  uploadedBy: string,
): Promise<number> {
  const pictures = new Map<string, Buffer>();
  const picture = async (slot: number) => {
    const colour = COLOURS[slot % COLOURS.length]!;
    if (!pictures.has(colour)) pictures.set(colour, await sampleImage(colour));
    return pictures.get(colour)!;
  };
  const slugs = [...new Set(rows.map((r) => r.category))];
  let attached = 0;
  for (const row of rows) {
    const mode = CATEGORIES[row.category as CategorySlug]?.media;
    if (mode !== 'image' && mode !== 'images') continue;
    const count = mode === 'images' ? 2 : 1;
    for (let position = 0; position < count; position++) {
      const bytes = await picture(slugs.indexOf(row.category) * 2 + position);
      await mediaService.ingest(
        { field: mode === 'images' ? 'files' : 'image', filename: 'sample.png', mimetype: 'image/png', stream: Readable.from([bytes]) },
        { recordId: row.id, role: mode === 'images' ? 'gallery' : 'cover', position, uploadedBy, accept: 'image', caption: 'Sample image' },
      );
      attached++;
    }
  }
  return attached;
}
