/**
 * Where an incident happened, and how exactly the public may see it (issue 39 item 5). Stored as entered; every
 * reader who may not edit the record is shown the coordinates rounded to the precision an editor chose, so a
 * witness's house is not given away by a map. ACLED's `geo_precision` (1 exact, 2 near a town, 3 a region) is coarser.
 */
export const GEO_PRECISIONS = ['exact', 'town', 'woreda', 'zone', 'region'] as const;
export type GeoPrecision = (typeof GEO_PRECISIONS)[number];

/** The grid, in degrees, each precision rounds to: about 1 m, 1 km, 11 km, 55 km and 110 km at the equator. */
export const GEO_GRID: Record<GeoPrecision, number> = { exact: 0.00001, town: 0.01, woreda: 0.1, zone: 0.5, region: 1 };

function roundTo(value: number, step: number): number {
  // Through the reciprocal, so 0.01-steps come out as 9.03 and not 9.030000000000001.
  const inverse = Math.round(1 / step);
  return Math.round(value * inverse) / inverse;
}

/** A point as the public sees it: rounded to its precision (a missing precision rounds to the coarsest). */
export function publicPoint(latitude: number, longitude: number, precision: string | null | undefined): { latitude: number; longitude: number } {
  const step = GEO_GRID[(GEO_PRECISIONS as readonly string[]).includes(precision ?? '') ? (precision as GeoPrecision) : 'region'];
  return { latitude: roundTo(latitude, step), longitude: roundTo(longitude, step) };
}
