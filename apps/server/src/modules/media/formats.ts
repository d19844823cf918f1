/**
 * The file types the site accepts, recognised by their bytes (never by the name or the browser's claimed type), and
 * the content types it serves its public copies with.
 */

export type MediaKind = 'image' | 'video';

export interface AcceptedType {
  kind: MediaKind;
  mime: string;
  /** Extension of a public copy served as-is (videos before or without processing). */
  ext: string;
}

/** Keyed by the MIME type `file-type` detects. HEIC is accepted only when this build of sharp can decode it. */
export const ACCEPTED_TYPES: Record<string, AcceptedType> = {
  'image/jpeg': { kind: 'image', mime: 'image/jpeg', ext: 'jpg' },
  'image/png': { kind: 'image', mime: 'image/png', ext: 'png' },
  'image/webp': { kind: 'image', mime: 'image/webp', ext: 'webp' },
  'image/avif': { kind: 'image', mime: 'image/avif', ext: 'avif' },
  'image/gif': { kind: 'image', mime: 'image/gif', ext: 'gif' },
  'image/heic': { kind: 'image', mime: 'image/heic', ext: 'heic' },
  'image/heif': { kind: 'image', mime: 'image/heif', ext: 'heif' },
  'video/mp4': { kind: 'video', mime: 'video/mp4', ext: 'mp4' },
  'video/webm': { kind: 'video', mime: 'video/webm', ext: 'webm' },
  'video/quicktime': { kind: 'video', mime: 'video/quicktime', ext: 'mov' },
};

export const ACCEPTED_LABEL: Record<MediaKind, string> = {
  image: 'JPEG, PNG, WebP, AVIF, GIF or HEIC image',
  video: 'MP4, WebM or MOV video',
};

/** Content types of what `/media/public/` serves, by extension. */
export const PUBLIC_CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  heic: 'image/heic',
  heif: 'image/heif',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
};

/** A public file name: the SHA-256 of its bytes, an optional width or label, and an extension. */
export const PUBLIC_NAME = /^[a-f0-9]{64}(?:-[a-z0-9]{1,16})?\.[a-z0-9]{2,5}$/;
