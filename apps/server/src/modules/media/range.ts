/**
 * Parses a `Range` header for one byte range (what video players send when seeking). Returns null to serve the
 * whole file (no header, another unit, or several ranges, which a server may ignore), or 'unsatisfiable' for a
 * range outside the file (416).
 */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/.exec(header.trim());
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  let start: number;
  let end: number;
  if (first === '') {
    // Suffix range: the last N bytes.
    const length = Number(last);
    if (length === 0) return 'unsatisfiable';
    start = Math.max(0, size - length);
    end = size - 1;
  } else {
    start = Number(first);
    end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
    if (last !== '' && Number(last) < start) return null;
  }
  if (!Number.isSafeInteger(start) || start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}
