export function median(values) {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The order in which `count` sites take their turn in round `round`: each round starts with the other end, so a burst
 * of the machine's other work falls on every site alike.
 */
export function turnOrder(count, round) {
  const order = Array.from({ length: count }, (_, i) => i);
  return round % 2 ? order.reverse() : order;
}

export function percentile(values, p) {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Formats a table of rows (arrays) with a header, right-aligning numbers. */
export function table(header, rows) {
  const cells = [header, ...rows].map((row) => row.map((c) => (c === null || c === undefined ? '-' : String(c))));
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]?.length ?? 0)));
  return cells
    .map((row, r) =>
      row
        .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
        .join('  ')
        .concat(r === 0 ? `\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : ''),
    )
    .join('\n');
}

export const fmt = {
  n: (v, digits = 0) => (v === null || v === undefined || Number.isNaN(v) ? null : Number(v).toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits })),
  ms: (v) => (v === null || v === undefined ? null : v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)),
  mb: (bytes) => (bytes === null || bytes === undefined ? null : (bytes / 1024 / 1024).toFixed(1)),
  kb: (bytes) => (bytes === null || bytes === undefined ? null : (bytes / 1024).toFixed(1)),
};
