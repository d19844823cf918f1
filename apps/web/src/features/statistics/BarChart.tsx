import { useTranslation } from '../../lib/i18n';

export interface BarRow {
  key: string;
  label: string;
  count: number;
  /** The search page's address of this bar's records; none for a bar that no filter can select. */
  href?: string;
}

const WIDTH = 640;
const LABEL_WIDTH = 200;
const ROW = 24;

/** Names longer than the label column are cut with an ellipsis in the drawing; the table beside it has them whole. */
const shorten = (label: string) => (label.length > 28 ? `${label.slice(0, 27)}…` : label);

/**
 * A horizontal bar chart drawn as SVG (by the server, like the rest of the page) with the table of its numbers beside
 * it: the table is what screen readers and copy-paste read, the bars are links to the matching search.
 */
export function BarChart({ id, title, rows, nameHeading }: { id: string; title: string; rows: BarRow[]; nameHeading: string }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  const max = Math.max(1, ...rows.map((r) => r.count));
  const barSpace = WIDTH - LABEL_WIDTH - 70;
  const height = rows.length * ROW + 4;
  return (
    <figure className="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart-title">
        {title}
      </figcaption>
      <div className="chart-body">
        <svg className="chart-svg" viewBox={`0 0 ${WIDTH} ${height}`} width={WIDTH} height={height} role="group" aria-labelledby={`${id}-title`}>
          {rows.map((row, i) => {
            const y = i * ROW + 2;
            const width = row.count > 0 ? Math.max(2, (row.count / max) * barSpace) : 0;
            const label = t('statistics.bar', { name: row.label, count: row.count, formatted: number.format(row.count) });
            const drawing = (
              <>
                <text x={LABEL_WIDTH - 8} y={y + 16} textAnchor="end" className="chart-label" aria-hidden="true">
                  {shorten(row.label)}
                </text>
                <rect x={LABEL_WIDTH} y={y + 3} width={width} height={ROW - 8} className="chart-bar" />
                <text x={LABEL_WIDTH + width + 6} y={y + 16} className="chart-value" aria-hidden="true">
                  {number.format(row.count)}
                </text>
              </>
            );
            return row.href ? (
              <a key={row.key} href={row.href} aria-label={label} className="chart-link">
                {drawing}
              </a>
            ) : (
              <g key={row.key}>{drawing}</g>
            );
          })}
        </svg>
        <table className="chart-table">
          <thead>
            <tr>
              <th scope="col">{nameHeading}</th>
              <th scope="col">{t('statistics.count')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row">{row.label}</th>
                <td>{number.format(row.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
