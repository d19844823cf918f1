import type { LinkCaptureRow, MediaRow } from '../../db/schema';
import { CAPTURE_FILE_NAMES, storedFile } from '../captures/files';

/**
 * Where each thing goes in the bag's `data/` folder, decided before a byte is written: the README lists the files,
 * and the ZIP's entries are named up front. Names are made of ids and a cleaned file name, so no path a contributor
 * typed reaches the ZIP (no `..`, no separators).
 */

export const PAYLOAD = {
  record: 'record.json',
  versions: 'record-versions.json',
  sources: 'sources.json',
  originals: 'originals.json',
  publicCopies: 'public.json',
  captures: 'captures.json',
  custody: 'custody.ndjson',
  about: 'package.json',
  readme: 'README.html',
  captureKey: 'keys/capture-key.pem',
} as const;

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/quicktime': 'mov',
};

function cleanName(name: string | null, mime: string): string {
  const cleaned = (name ?? '').normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(-80);
  return cleaned || `original.${EXTENSIONS[mime] ?? 'bin'}`;
}

export const personPath = (id: string) => `people/${id}.json`;
export const originalPath = (file: MediaRow) => `originals/${file.id}/${cleanName(file.originalName, file.mime)}`;
export const publicCopyPath = (key: string) => `public/${key.split('/').pop()}`;
export const capturePath = (capture: LinkCaptureRow, name: string) => `captures/${capture.id}/${name}`;
export const checkpointPath = (seq: number, name: 'statement.txt' | 'signature.bin' | 'timestamp.tsr') => `checkpoints/${seq}/${name}`;
export const auditKeyPath = (keyId: string) => `keys/audit-key-${keyId.slice(0, 16)}.pem`;

/** Every public copy of a file: its main copy and its resized variants, each once. */
export function publicKeysOf(file: MediaRow): { key: string; width: number | null; format: string | null }[] {
  const seen = new Map<string, { key: string; width: number | null; format: string | null }>();
  for (const v of file.variants ?? []) if (!seen.has(v.key)) seen.set(v.key, { key: v.key, width: v.width, format: v.format });
  if (file.publicKey && !seen.has(file.publicKey)) seen.set(file.publicKey, { key: file.publicKey, width: null, format: null });
  return [...seen.values()];
}

/** The files of a capture that it has, by the name they are served under. */
export function captureFilesOf(capture: LinkCaptureRow) {
  return CAPTURE_FILE_NAMES.map((name) => ({ name, stored: storedFile(capture, name) })).filter((f): f is { name: (typeof CAPTURE_FILE_NAMES)[number]; stored: NonNullable<ReturnType<typeof storedFile>> } => f.stored !== null);
}
