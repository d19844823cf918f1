import type { CategorySlug } from './categories/types';
import type { Role } from './permissions';

export const API_VERSION = '1.0.0';
export const API_BASE = `/api/v${API_VERSION}`;
export const USERS_API_BASE = '/api/users';

export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 200;

/** Header carrying a list's total (the "(n)" of list titles). */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';

/** Body of every 4xx: field errors keyed by field name, or `message` for errors not tied to a field. */
export type ErrorBody = Record<string, string>;

export interface ImageVariant {
  width: number;
  format: 'webp' | 'avif' | 'jpeg';
  url: string;
}

/** One stored file as the public API shows it. */
export interface MediaDto {
  imageId: string;
  imageUrl: string;
  kind: 'image' | 'video' | 'poster';
  width: number | null;
  height: number | null;
  variants: ImageVariant[];
  sha256: string;
  caption: string | null;
  graphic: boolean;
  status: 'queued' | 'processing' | 'ready' | 'failed';
  /** Size in bytes and detected type of the original (whose SHA-256 is `sha256`). */
  size?: number;
  mime?: string;
  /** Videos: the poster's widest JPEG (its other copies are in `variants`); null until processed. */
  posterUrl?: string | null;
  /** Editors of the owning record only: what the original's metadata says about capture. */
  restricted?: RestrictedMediaInfo | null;
  /** Editors only: why processing failed or how the file is served. */
  statusReason?: string | null;
}

export interface RestrictedMediaInfo {
  capturedAt?: string;
  gps?: { latitude: number; longitude: number; altitude?: number };
  make?: string;
  model?: string;
  software?: string;
}

/** GET /media/verify: fixity check of every stored original (uploads, and link captures as `capture:<id>`). */
export interface MediaVerifyReport {
  checked: number;
  ok: number;
  mismatched: { id: string; key: string; expected: string; actual: string }[];
  missing: { id: string; key: string }[];
}

/** A record as the API returns it (category-specific fields are present only when used). */
export interface RecordDto {
  _id: string;
  category: CategorySlug;
  title: string;
  subtitle: string | null;
  description: string;
  createdAt: string;
  updatedAt: string;
  imageUrl: string;
  images: MediaDto[];
  approved: boolean;
  approvedAt: string | null;
  public: boolean;
  graphic: boolean;
  userId: string | null;
  [field: string]: unknown;
}

export interface JwtClaims {
  id: string;
  role: Role;
  name: string;
  exp: number;
  /** Token version: raised by a password reset or role change so older tokens stop working. */
  tv: number;
}

/** One item of the derived /images gallery. `_id` is the image's own id, used in /images/{id}. */
export interface GalleryItemDto {
  _id: string;
  imageId: string;
  imageUrl: string;
  variants: ImageVariant[];
  width: number | null;
  height: number | null;
  caption: string | null;
  graphic: boolean;
  recordId: string;
  category: CategorySlug;
  title: string;
}
