import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { paths, type RecordDto } from '@app/shared';
import { formatDate } from '../../lib/dates';
import { LinkText, splitLinks } from './FieldValue';
import { PrivateMark } from './PrivateMark';

/**
 * The massacres fact sheet: Case No. (linked), Description (the short description), Location, Date (remark
 * in parentheses), Evidences (links split on ", "), Casualties; with the red disclaimer above it. Below 768px each row
 * is a block of "label: value" lines (every cell carries its column's name), so no column is off-screen.
 */
export function MassacreTable({ records }: { records: RecordDto[] }) {
  const { t, i18n } = useTranslation();
  const columns = {
    caseNo: t('record.caseNo'),
    description: t('record.description'),
    location: t('record.location'),
    date: t('record.date'),
    evidences: t('record.evidences'),
    casualties: t('record.casualties'),
  };
  return (
    <div className="massacre-table">
      <p className="table-disclaimer" role="note" data-testid="table-disclaimer">
        {t('record.tableDisclaimer')}
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label={t('record.viewTable')}>
        <table>
          <thead>
            <tr>
              <th scope="col">{columns.caseNo}</th>
              <th scope="col">{columns.description}</th>
              <th scope="col">{columns.location}</th>
              <th scope="col">{columns.date}</th>
              <th scope="col">{columns.evidences}</th>
              <th scope="col">{columns.casualties}</th>
            </tr>
          </thead>
          <tbody>
            {records.map((r) => {
              const date = formatDate(r.happenedOn as string | null, i18n.language);
              const remark = typeof r.remark === 'string' && r.remark ? ` (${r.remark})` : '';
              return (
                <tr key={r._id}>
                  <td data-label={columns.caseNo}>
                    <span>
                      <Link to={paths.detail('massacres', r._id)}>{(r.caseNum as string | null) || r.title}</Link> <PrivateMark record={r} />
                    </span>
                  </td>
                  <td data-label={columns.description}>{(r.shortDescription as string | null) ?? ''}</td>
                  <td data-label={columns.location}>{(r.location as string | null) ?? ''}</td>
                  <td data-label={columns.date}>{date ? `${date}${remark}` : remark.trim()}</td>
                  <td data-label={columns.evidences}>
                    <ul className="link-list">
                      {splitLinks(r.evidence).map((url) => (
                        <li key={url}>
                          {/^https?:\/\//i.test(url) ? (
                            <a href={url} target="_blank" rel="noopener noreferrer">
                              <LinkText url={url} />
                            </a>
                          ) : (
                            url
                          )}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td data-label={columns.casualties}>{r.quantity === null || r.quantity === undefined ? '' : String(r.quantity)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
