import type { SearchFilters, StatisticsResponse } from '@app/shared';
import { useTranslation } from '../../lib/i18n';
import { searchHref } from './api';

const HEIGHT = 180;
/** Room under the bars for the month and, at January and at the first month, the year. */
const AXIS = 36;
/** Pixels per month: the chart is drawn at its own size (never scaled down), so its labels stay at 12 px. */
const STEP = 36;
/** Months that fit a phone's screen; a longer chart scrolls sideways and says so. */
const PHONE_MONTHS = 9;

/** Every month from the first to the last, those without records included (a gap in time is part of the picture). */
export function monthRange(months: StatisticsResponse['months']): Month[] {
  if (!months.length) return [];
  const counts = new Map(months.map((m) => [m.month, m.count]));
  const out: Month[] = [];
  const [firstYear, firstMonth] = months[0]!.month.split('-').map(Number) as [number, number];
  const last = months.at(-1)!.month;
  for (let y = firstYear, m = firstMonth; ; m === 12 ? ((m = 1), y++) : m++) {
    const month = `${y}-${String(m).padStart(2, '0')}`;
    out.push({ month, count: counts.get(month) ?? 0 });
    if (month === last) break;
  }
  return out;
}

export const lastDayOfMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
};

type Month = { month: string; count: number };
interface MonthFormats {
  number: Intl.NumberFormat;
  shortMonth: Intl.DateTimeFormat;
  label: (month: string) => string;
}

function useMonthFormats(): MonthFormats {
  const { i18n } = useTranslation();
  const monthName = new Intl.DateTimeFormat(i18n.language, { month: 'short', year: 'numeric', timeZone: 'UTC' });
  return {
    number: new Intl.NumberFormat(i18n.language),
    shortMonth: new Intl.DateTimeFormat(i18n.language, { month: 'short', timeZone: 'UTC' }),
    label: (month: string) => monthName.format(new Date(`${month}-15T00:00:00Z`)),
  };
}

/** The bars, each a link to the search of its month, with the month under it (and the year at January and first). */
function MonthBars({ months, filters, formats }: { months: Month[]; filters: Partial<SearchFilters>; formats: MonthFormats }) {
  const { t } = useTranslation();
  const max = Math.max(1, ...months.map((m) => m.count));
  const width = months.length * STEP + 8;
  return (
    <svg className="chart-svg month-chart-svg" viewBox={`0 0 ${width} ${HEIGHT + AXIS}`} width={width} height={HEIGHT + AXIS} role="group" aria-labelledby="months-title">
      <line x1={0} x2={width} y1={HEIGHT} y2={HEIGHT} className="chart-axis" />
      {months.map((m, i) => {
        const h = m.count > 0 ? Math.max(2, (m.count / max) * (HEIGHT - 8)) : 0;
        const x = 4 + i * STEP;
        return (
          <g key={m.month}>
            {m.count > 0 ? (
              <a
                href={searchHref(filters, { from: `${m.month}-01`, to: lastDayOfMonth(m.month) })}
                aria-label={t('statistics.bar', { name: formats.label(m.month), count: m.count, formatted: formats.number.format(m.count) })}
                className="chart-link"
              >
                <rect x={x} y={HEIGHT - h} width={Math.max(2, STEP - 2)} height={h} className="chart-bar" />
              </a>
            ) : null}
            <text x={x + (STEP - 2) / 2} y={HEIGHT + 15} textAnchor="middle" className="chart-label" aria-hidden="true">
              {formats.shortMonth.format(new Date(`${m.month}-15T00:00:00Z`))}
            </text>
            {m.month.endsWith('-01') || i === 0 ? (
              <text x={x} y={HEIGHT + 31} className="chart-label chart-year" aria-hidden="true">
                {m.month.slice(0, 4)}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}

/** The same counts as a table: the months that have records, then those without a date. */
function MonthTable({ statistics, formats }: { statistics: StatisticsResponse; formats: MonthFormats }) {
  const { t } = useTranslation();
  return (
    <div className="chart-table-scroll">
      <table className="chart-table">
        <thead>
          <tr>
            <th scope="col">{t('statistics.month')}</th>
            <th scope="col">{t('statistics.count')}</th>
          </tr>
        </thead>
        <tbody>
          {statistics.months.map((m) => (
            <tr key={m.month}>
              <th scope="row">
                <time dateTime={m.month}>{formats.label(m.month)}</time>
              </th>
              <td>{formats.number.format(m.count)}</td>
            </tr>
          ))}
          {statistics.undated ? (
            <tr>
              <th scope="row">{t('statistics.undated')}</th>
              <td>{formats.number.format(statistics.undated)}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Records per month as vertical SVG bars, each a link to the search of that month, each month named under its bar; the
 * table of months beside it. Wider than the screen, it scrolls sideways (a focusable region that says so).
 */
export function MonthChart({ statistics, filters }: { statistics: StatisticsResponse; filters: Partial<SearchFilters> }) {
  const { t } = useTranslation();
  const formats = useMonthFormats();
  const months = monthRange(statistics.months);
  const scrolls = months.length > PHONE_MONTHS;
  return (
    <figure className="chart" aria-labelledby="months-title">
      <figcaption id="months-title" className="chart-title">
        {t('statistics.byMonth')}
      </figcaption>
      <div className="chart-body">
        <div
          className={`month-chart-scroll${scrolls ? ' is-long' : ''}`}
          tabIndex={scrolls ? 0 : undefined}
          role={scrolls ? 'region' : undefined}
          aria-label={scrolls ? t('statistics.monthsScroll') : undefined}
        >
          <MonthBars months={months} filters={filters} formats={formats} />
        </div>
        {scrolls ? (
          <p className="month-chart-hint" aria-hidden="true">
            {t('statistics.monthsScrollHint')}
          </p>
        ) : null}
        <MonthTable statistics={statistics} formats={formats} />
      </div>
    </figure>
  );
}
