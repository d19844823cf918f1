import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { paths, type RecordDto } from '@app/shared';
import { formatDate } from '../../lib/dates';
import { splitLinks } from './FieldValue';

/**
 * The massacres fact sheet: Case No. (linked), Description (the short description), Location, Date (remark
 * in parentheses), Evidences (links split on ", "), Casualties; with the red disclaimer above it.
 */
export function MassacreTable({ records }: { records: RecordDto[] }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="massacre-table">
      <p className="table-disclaimer" role="note" data-testid="table-disclaimer">
        {t('record.tableDisclaimer')}
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label={t('record.viewTable')}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('record.caseNo')}</th>
              <th scope="col">{t('record.description')}</th>
              <th scope="col">{t('record.location')}</th>
              <th scope="col">{t('record.date')}</th>
              <th scope="col">{t('record.evidences')}</th>
              <th scope="col">{t('record.casualties')}</th>
            </tr>
          </thead>
          <tbody>
            {records.map((r) => {
              const date = formatDate(r.happenedOn as string | null, i18n.language);
              const remark = typeof r.remark === 'string' && r.remark ? ` (${r.remark})` : '';
              return (
                <tr key={r._id}>
                  <td>
                    <Link to={paths.detail('massacres', r._id)}>{(r.caseNum as string | null) || r.title}</Link>
                  </td>
                  <td>{(r.shortDescription as string | null) ?? ''}</td>
                  <td>{(r.location as string | null) ?? ''}</td>
                  <td>{date ? `${date}${remark}` : remark.trim()}</td>
                  <td>
                    <ul className="link-list">
                      {splitLinks(r.evidence).map((url) => (
                        <li key={url}>
                          {/^https?:\/\//i.test(url) ? (
                            <a href={url} target="_blank" rel="noopener noreferrer">
                              {url}
                            </a>
                          ) : (
                            url
                          )}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td>{r.quantity === null || r.quantity === undefined ? '' : String(r.quantity)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
