import type { LinkCaptureRow } from '../../db/schema';

/**
 * The files of a capture (the WACZ web archive and the TLS certificates besides the three of the first captures), by the name they are served under: the column prefix of their key, hash and size in
 * `link_captures`, their type, and whether they are shown in the page (the screenshot) or only downloaded. Only the
 * screenshot is for every reader of the record; the others can hold graphic or personal content.
 */
export const CAPTURE_FILES = {
  'screenshot.png': { column: 'screenshot', type: 'image/png', inline: true },
  'snapshot.mhtml': { column: 'snapshot', type: 'multipart/related', inline: false },
  'headers.json': { column: 'headers', type: 'application/json', inline: false },
  'capture.wacz': { column: 'wacz', type: 'application/wacz', inline: false },
  'certificates.pem': { column: 'certificates', type: 'application/x-pem-file', inline: false },
} as const;

export type CaptureFileName = keyof typeof CAPTURE_FILES;
export const CAPTURE_FILE_NAMES = Object.keys(CAPTURE_FILES) as [CaptureFileName, ...CaptureFileName[]];

type Column = (typeof CAPTURE_FILES)[CaptureFileName]['column'];

/** The stored file `name` of a capture: its key, SHA-256 and size, or null when the capture has none. */
export function storedFile(row: LinkCaptureRow, name: CaptureFileName): { key: string; sha256: string; size: number } | null {
  const column: Column = CAPTURE_FILES[name].column;
  const key = row[`${column}Key`];
  if (!key) return null;
  return { key, sha256: row[`${column}Sha256`]!, size: row[`${column}Size`]! };
}
