import { CATEGORY_LIST, isUuid, markdownToPlainText, type BrandConfig, type MediaDto, type RecordDto } from '@app/shared';
import type { PublicReads } from '../records/public-reads';
import type { MetaResolver, PageMeta } from '../web/shell';

/** Link previews carry this much of the description, as plain text. */
const PREVIEW_DESCRIPTION_LENGTH = 200;
/** Preview images: the derived JPEG closest to this width (what the networks display). */
const PREVIEW_IMAGE_WIDTH = 1200;


export function previewText(markdown: string): string {
  const text = markdownToPlainText(markdown);
  return text.length > PREVIEW_DESCRIPTION_LENGTH ? `${text.slice(0, PREVIEW_DESCRIPTION_LENGTH - 1).trimEnd()}…` : text;
}

function absoluteUrl(publicUrl: string, url: string): string {
  return /^https?:\/\//i.test(url) ? url : `${publicUrl}${url.startsWith('/') ? '' : '/'}${url}`;
}

/** The file a preview shows: a JPEG copy near 1200px wide (every network reads JPEG), else the main copy. */
function previewImageUrl(file: Pick<MediaDto, 'imageUrl' | 'variants' | 'posterUrl' | 'kind'>): string | undefined {
  if (file.kind === 'video') return file.posterUrl ?? undefined;
  const jpegs = file.variants.filter((v) => v.format === 'jpeg');
  if (jpegs.length) {
    return [...jpegs].sort((a, b) => Math.abs(a.width - PREVIEW_IMAGE_WIDTH) - Math.abs(b.width - PREVIEW_IMAGE_WIDTH))[0]!.url;
  }
  return file.imageUrl || undefined;
}

function recordImage(record: RecordDto): string | undefined {
  for (const file of record.images) {
    if (file.graphic || file.status !== 'ready') continue; // no disturbing image in a feed preview
    const url = previewImageUrl(file);
    if (url) return url;
  }
  return undefined;
}

/** What link previews read: the public reads (as an anonymous visitor) and the site's name and address. */
interface LinkPreviewServices {
  publicReads: PublicReads;
  brand: Pick<BrandConfig, 'publicUrl' | 'siteName'>;
}

/** The link-preview data of the record, list or image behind `pathname`, read as an anonymous visitor would. */
export function linkPreviewResolver({ publicReads, brand }: LinkPreviewServices): MetaResolver {
  const publicUrl = brand.publicUrl;
  const routes = new Map(CATEGORY_LIST.map((c) => [c.route.slice(1), c]));

  return async (pathname) => {
    const parts = pathname.replace(/\/+$/, '').split('/').slice(1).map((p) => decodeURIComponent(p));
    if (parts.length === 0 || parts[0] === '') return null;
    const [first, second, third] = parts;

    if (first === 'about' && parts.length === 1) return { title: 'About' };

    if (first === 'images') {
      if (parts.length === 1) return { title: 'Images', description: `Images of the records documented on ${brand.siteName}.` };
      if (parts.length !== 2 || !isUuid(second!)) return null;
      const read = await publicReads.read({ kind: 'image', id: second!.toLowerCase() });
      if (read.status !== 200) return null;
      const item = read.body as { title: string; caption: string | null; imageUrl: string; variants: MediaDto['variants']; graphic: boolean };
      const image = item.graphic ? undefined : previewImageUrl({ ...item, kind: 'image', posterUrl: null });
      return {
        title: item.title,
        description: item.caption ? previewText(item.caption) : `An image of the record "${item.title}".`,
        image: image ? absoluteUrl(publicUrl, image) : undefined,
        type: 'article',
      } satisfies Partial<PageMeta>;
    }

    const category = routes.get(first!);
    if (!category) return null;
    if (parts.length === 1) {
      return { title: category.listName, description: `${category.listName} documented on ${brand.siteName}.` };
    }
    if (parts.length !== 2 || third !== undefined || !isUuid(second!)) return null;
    const read = await publicReads.read({ kind: 'one', category: category.slug, id: second!.toLowerCase() });
    // Non-public records answer 404 to anonymous readers: the crawler gets the site's default preview.
    if (read.status !== 200) return null;
    const record = read.body as RecordDto;
    const image = recordImage(record);
    return {
      title: record.title,
      description: previewText(record.description) || record.subtitle || record.title,
      image: image ? absoluteUrl(publicUrl, image) : undefined,
      type: 'article',
    } satisfies Partial<PageMeta>;
  };
}
