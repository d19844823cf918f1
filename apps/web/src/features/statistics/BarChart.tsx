import { useTranslation } from '../../lib/i18n';

export interface BarRow {
  key: string;
  label: string;
  count: number;
  /** The search page's address of this bar's records; none for a bar that no filter can select. */
  href?: string;
}

/**
 * A horizontal bar chart drawn in HTML by the server (no script) with the table of its numbers beside it: the table is
 * what screen readers and copy-paste read, the bars are links to the matching search. HTML rather than a scaled SVG,
 * so its words keep the page's text size on a phone and long names wrap instead of being cut.
 */
export function BarChart({ id, title, rows, nameHeading }: { id: string; title: string; rows: BarRow[]; nameHeading: string }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  const max = Math.max(1, ...rows.map((r) => r.count));
  return (
    <figure className="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart-title">
        {title}
      </figcaption>
      <div className="chart-body">
        <ul className="bar-chart" aria-labelledby={`${id}-title`}>
          {rows.map((row) => {
            const share = row.count > 0 ? Math.max(0.5, (row.count / max) * 100) : 0;
            // The link's name is what it shows, then the unit for a screen reader ("Amhara 7 records"): a name that
            // differs from the visible words fails voice control ("click Amhara 7") and Lighthouse's audit.
            const drawing = (
              <>
                <span className="bar-label">{row.label}</span>{' '}
                <span className="bar-track" aria-hidden="true">
                  <span className="bar-fill" style={{ width: `${share.toFixed(2)}%` }} />
                </span>
                <span className="bar-value">{number.format(row.count)}</span>{' '}
                <span className="visually-hidden">{t('statistics.barUnit', { count: row.count })}</span>
              </>
            );
            return (
              // A bar no filter can select is only drawn: its number is in the table.
              <li key={row.key} aria-hidden={row.href ? undefined : true}>
                {row.href ? (
                  <a href={row.href} className="bar-row chart-link">
                    {drawing}
                  </a>
                ) : (
                  <span className="bar-row">{drawing}</span>
                )}
              </li>
            );
          })}
        </ul>
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
