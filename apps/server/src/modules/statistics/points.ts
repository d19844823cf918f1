import { sql } from 'drizzle-orm';
import { GEO_PRECISIONS, MAP_POINT_CATEGORIES, MAP_POINTS_MAX, publicPoint, type GeoPrecision, type MapPoint, type MapPointsResponse, type SearchFilters } from '@app/shared';
import { rowsOf, type Db } from '../../db';
import { records } from '../../db/schema';
import { filterConditions, inList, searchColumns, textQuery, type Visibility } from '../collection/filters';

interface PointRow {
  id: string;
  category: MapPoint['category'];
  title: string;
  day: string | null;
  latitude: number;
  longitude: number;
  geo_precision: string | null;
  region: string | null;
  location: string | null;
  zone: string | null;
  woreda: string | null;
  approved: boolean;
  total: string;
}

const precisionOf = (stored: string | null): GeoPrecision => ((GEO_PRECISIONS as readonly string[]).includes(stored ?? '') ? (stored as GeoPrecision) : 'region');

/**
 * The incidents with coordinates that match the filters and that the reader may read (the collection's conditions:
 * live, and public for anonymous readers), newest first, at most MAP_POINTS_MAX. Every point is rounded to its
 * precision here, for every reader, editors included: only what the public may see of a place is ever drawn.
 */
export async function mapPoints(db: Db, filters: SearchFilters, visibility: Visibility): Promise<MapPointsResponse> {
  const where = filterConditions(filters, visibility);
  if (filters.q) where.push(sql`${searchColumns.vector} @@ ${textQuery(filters.q)}`);
  where.push(inList(records.category, MAP_POINT_CATEGORIES));
  where.push(sql`${records.latitude} is not null and ${records.longitude} is not null`);
  const rows = await rowsOf<PointRow>(
    db,
    sql`select ${records.id} as id, ${records.category} as category, ${records.title} as title,
        to_char(${searchColumns.date} at time zone 'UTC', 'YYYY-MM-DD') as day,
        ${records.latitude} as latitude, ${records.longitude} as longitude, ${records.geoPrecision} as geo_precision,
        ${records.region} as region, coalesce(${records.location}, ${records.city}) as location, ${records.zone} as zone, ${records.woreda} as woreda,
        ${records.approved} as approved, count(*) over ()::text as total
      from ${records} where ${sql.join(where, sql` and `)}
      order by ${searchColumns.date} desc nulls last, ${records.id}
      limit ${MAP_POINTS_MAX}`,
  );
  const points = rows.map((row): MapPoint => {
    const geoPrecision = precisionOf(row.geo_precision);
    const { latitude, longitude } = publicPoint(Number(row.latitude), Number(row.longitude), geoPrecision);
    return {
      _id: row.id,
      category: row.category,
      title: row.title,
      date: row.day,
      latitude,
      longitude,
      geoPrecision,
      region: row.region,
      location: row.location,
      zone: row.zone,
      woreda: row.woreda,
      approved: row.approved,
    };
  });
  return { points, total: rows.length ? Number(rows[0]!.total) : 0 };
}
