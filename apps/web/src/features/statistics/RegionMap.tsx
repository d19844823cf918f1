import { REGIONS, regionName, UNKNOWN_REGION, type MapPoint, type SearchFilters, type StatisticsResponse } from '@app/shared';
import { useTranslation } from '../../lib/i18n';
import { searchHref } from './api';
import { PointMarkers } from './IncidentPoints';
import ethiopia from './map/ethiopia-regions.json';

/** Five shades from light to dark, and the one of regions without records. */
const SHADES = ['#f6ddd3', '#eaa98f', '#d5725a', '#a9432f', '#6e1c1c'];
const NONE = '#f3f1ee';

/** Regions drawn smaller than this (in the map's units) also get a marker that a finger or a pointer can hit. */
const SMALL_AREA = 400;

/** Regions formed from the former SNNP region, which the map's (pre-2020) boundaries still show as one. */
export const FORMED_FROM_SNNP = REGIONS.filter((r) => 'formedFrom' in r && r.formedFrom === 'snnp').map((r) => r.code);

/** Regions drawn at least this large (in the map's units) carry their name on the map itself. */
const LABELLED_AREA = 3000;

/** Where a name goes when the area's centre falls outside it or on a neighbour (Oromia wraps around the former SNNP). */
const LABEL_AT: Record<string, [number, number]> = { oromia: [292, 262] };

/**
 * The rules that light a region and its name together: pointing at or focusing the one highlights the other (CSS
 * :has(), so the page needs no script). One pair of rules per region of the map's data.
 */
const HIGHLIGHT_RULES = ethiopia.regions
  .map(({ code }) => {
    // Unquoted values (the codes are CSS identifiers): the server's renderer escapes quotes in a <style>'s text.
    const name = `.region-map-names [data-region=${code}]`;
    const area = `.region-map-link[data-region=${code}]`;
    return [
      `.region-map:has(${name}:is(:hover, :focus-visible)) ${area} .region-map-area, .region-map:has(${name}:is(:hover, :focus-visible)) ${area} .region-map-marker { stroke: var(--focus); stroke-width: 3; }`,
      `.region-map:has(${area}:is(:hover, :focus-visible)) ${name} { background: var(--wash); outline: 2px solid var(--focus); }`,
    ].join('\n');
  })
  .join('\n');

/** Upper bounds of the five shades: equal steps up to the largest count. */
function classBounds(max: number): number[] {
  return [1, 2, 3, 4, 5].map((i) => Math.ceil((max * i) / 5));
}

/** The shades and the counts each stands for (none, then five equal steps up to the largest count). */
function MapLegend({ max, bounds, number }: { max: number; bounds: number[]; number: Intl.NumberFormat }) {
  const { t } = useTranslation();
  return (
    <ul className="region-map-legend" aria-label={t('statistics.map.legend')}>
      <li>
        <span className="swatch" style={{ background: NONE }} aria-hidden="true" /> 0
      </li>
      {max > 0
        ? bounds.map((upper, i) => {
            const lower = i === 0 ? 1 : bounds[i - 1]! + 1;
            if (lower > upper) return null;
            return (
              <li key={upper}>
                <span className="swatch" style={{ background: SHADES[i] }} aria-hidden="true" /> {lower === upper ? number.format(upper) : `${number.format(lower)}–${number.format(upper)}`}
              </li>
            );
          })
        : null}
    </ul>
  );
}

/**
 * Ethiopia's regions shaded by their number of records (a choropleth), drawn as SVG by the server; each region is a
 * link to the search of its records with the page's other filters. The boundaries (Natural Earth, before 2020) have
 * the former SNNP region as one area: it is shaded by the sum of the four regions formed from it and opens their search.
 */
export function RegionMap({ statistics, filters, points }: { statistics: StatisticsResponse; filters: Partial<SearchFilters>; points?: MapPoint[] }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  const counts = new Map(statistics.regions.map((r) => [r.region, r.count]));
  const areaCount = (code: string) => (code === 'snnp' ? FORMED_FROM_SNNP.reduce((sum, c) => sum + (counts.get(c) ?? 0), 0) : (counts.get(code) ?? 0));
  const areas = ethiopia.regions.map((area) => ({ ...area, count: areaCount(area.code) }));
  const max = Math.max(0, ...areas.map((a) => a.count));
  const bounds = classBounds(max);
  const shade = (count: number) => (count <= 0 ? NONE : SHADES[bounds.findIndex((b) => count <= b)] ?? SHADES[4]!);
  const nameOf = (code: string) => (code === 'snnp' ? t('statistics.map.snnp') : regionName(code, i18n.language));
  const hrefOf = (code: string) => searchHref(filters, { region: code === 'snnp' ? [...FORMED_FROM_SNNP] : [code as never] });
  const unknown = counts.get(UNKNOWN_REGION) ?? 0;
  // Large areas first, so the small ones drawn over them stay visible and clickable.
  const ordered = [...areas].sort((a, b) => b.area - a.area);
  const byName = [...areas].sort((a, b) => nameOf(a.code).localeCompare(nameOf(b.code), i18n.language));
  return (
    <div className="region-map">
      <style>{HIGHLIGHT_RULES}</style>
      <svg
        viewBox={`0 0 ${ethiopia.width} ${ethiopia.height}`}
        width={ethiopia.width}
        height={ethiopia.height}
        className="region-map-svg"
        role="group"
        aria-label={t('statistics.map.title')}
      >
        {ordered.map((area) => (
          <a
            key={area.code}
            href={hrefOf(area.code)}
            className="region-map-link"
            data-region={area.code}
            aria-label={t('statistics.bar', { name: nameOf(area.code), count: area.count, formatted: number.format(area.count) })}
          >
            <path d={area.d} fill={shade(area.count)} className="region-map-area" />
            {area.area < SMALL_AREA ? <circle cx={area.center[0]} cy={area.center[1]} r={6} fill={shade(area.count)} className="region-map-marker" /> : null}
          </a>
        ))}
        {/* Names on the larger regions, over every area (they belong to no link: the names beside the map are). */}
        <g className="region-map-labels" aria-hidden="true">
          {ordered
            .filter((area) => area.area >= LABELLED_AREA)
            .map((area) => (
              <text key={area.code} x={(LABEL_AT[area.code] ?? area.center)[0]} y={(LABEL_AT[area.code] ?? area.center)[1]} textAnchor="middle" className="region-map-label">
                {area.code === 'snnp' ? t('statistics.map.snnpShort') : regionName(area.code, i18n.language)}
              </text>
            ))}
        </g>
        {points?.length ? <PointMarkers points={points} /> : null}
      </svg>
      <ul className="region-map-names" aria-label={t('statistics.map.names')}>
        {byName.map((area) => (
          <li key={area.code}>
            <a href={hrefOf(area.code)} data-region={area.code}>
              <span className="swatch" style={{ background: shade(area.count) }} aria-hidden="true" />
              {nameOf(area.code)} <span className="region-map-count">({number.format(area.count)})</span>
            </a>
          </li>
        ))}
      </ul>
      <MapLegend max={max} bounds={bounds} number={number} />
      <p className="region-map-note">{t('statistics.map.snnpNote', { regions: FORMED_FROM_SNNP.map((c) => regionName(c, i18n.language)).join(', ') })}</p>
      {unknown ? <p className="region-map-note">{t('statistics.map.unknownNote', { formatted: number.format(unknown), count: unknown })}</p> : null}
      <p className="region-map-note">{t('statistics.map.source')}</p>
    </div>
  );
}
