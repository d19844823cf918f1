import { paths, regionName, type MapPoint, type MapPointsResponse } from '@app/shared';
import { formatDate } from '../../lib/dates';
import { useTranslation } from '../../lib/i18n';
import ethiopia from './map/ethiopia-regions.json';

/**
 * The incidents with coordinates on the map of the regions: each a point where the public may see it (the server rounds
 * every point to the precision its editors chose), linking to the incident's page, with a table of the same points
 * under the map for those who do not see it. Drawn by the server as part of the map's SVG, never adopted by a script.
 */

const { projection } = ethiopia;

/**
 * Where a point falls in the map's units: the projection the region shapes were drawn with (scripts/build-map.mjs:
 * equirectangular, longitudes shortened by the cosine of the country's middle latitude), so a point lands on its region.
 */
export function projectPoint(longitude: number, latitude: number): [number, number] {
  const round = (n: number) => Math.round(n * 10) / 10;
  return [round((longitude - projection.minLon) * projection.shorten * projection.scale), round((projection.maxLat - latitude) * projection.scale)];
}

const onMap = ([x, y]: [number, number]) => x >= 0 && y >= 0 && x <= ethiopia.width && y <= ethiopia.height;

/** The place as the record gives it: its location, woreda, zone and region. */
function placeOf(point: MapPoint, language: string): string {
  return [point.location, point.woreda, point.zone, point.region ? regionName(point.region, language) : null].filter(Boolean).join(', ');
}

/** The points, inside the map's SVG (over the regions and their names). */
export function PointMarkers({ points }: { points: MapPoint[] }) {
  const { t, i18n } = useTranslation();
  return (
    <g className="region-map-points">
      {points.map((point) => {
        const at = projectPoint(point.longitude, point.latitude);
        if (!onMap(at)) return null;
        const date = point.date ? formatDate(point.date, i18n.language) : '';
        return (
          <a key={point._id} href={paths.detail(point.category, point._id)} className="region-map-point" data-point={point._id}>
            <title>{date ? t('statistics.map.points.pointName', { title: point.title, date }) : point.title}</title>
            <circle cx={at[0]} cy={at[1]} r={5} />
          </a>
        );
      })}
    </g>
  );
}

/** The points as a table: what a screen reader reads, and what a reader copies. */
export function PointsTable({ answer }: { answer: MapPointsResponse }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  const { points, total } = answer;
  return (
    <section className="map-points" aria-labelledby="map-points-title">
      <h2 id="map-points-title" className="chart-title">
        {t('statistics.map.points.title', { count: total, formatted: number.format(total) })}
      </h2>
      <p className="region-map-note">{t('statistics.map.points.note')}</p>
      {points.length ? (
        <div className="map-points-scroll">
          <table className="chart-table map-points-table">
            <thead>
              <tr>
                <th scope="col">{t('statistics.map.points.incident')}</th>
                <th scope="col">{t('statistics.map.points.date')}</th>
                <th scope="col">{t('statistics.map.points.place')}</th>
                <th scope="col">{t('statistics.map.points.precision')}</th>
              </tr>
            </thead>
            <tbody>
              {points.map((point) => (
                <tr key={point._id}>
                  <th scope="row">
                    <a href={paths.detail(point.category, point._id)}>{point.title}</a>
                  </th>
                  <td data-label={t('statistics.map.points.date')}>
                    {point.date ? <time dateTime={point.date}>{formatDate(point.date, i18n.language)}</time> : t('statistics.map.points.noDate')}
                  </td>
                  <td data-label={t('statistics.map.points.place')}>{placeOf(point, i18n.language)}</td>
                  <td data-label={t('statistics.map.points.precision')}>{t(`statistics.map.points.precisions.${point.geoPrecision}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="region-map-note">{t('statistics.map.points.none')}</p>
      )}
      {total > points.length ? (
        <p className="region-map-note">{t('statistics.map.points.more', { shown: number.format(points.length), formatted: number.format(total) })}</p>
      ) : null}
    </section>
  );
}
