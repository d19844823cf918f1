import { Link, useSearchParams } from 'react-router';
import { filtersFromSearchParams, filtersToSearchParams, paths } from '@app/shared';
import { PageTitle } from '../../components/PageTitle';
import { DATA_PACKAGE_HREF, EXPORT_FORMATS, exportHref, FIELD_FORMATS } from '../../lib/exportLinks';
import { useTranslation } from '../../lib/i18n';
import './export.css';

/**
 * /export: the records as open data, one line per format saying who it is for, and the column descriptions in words
 * a researcher understands. The filters of a search (in the address, as /search has them) narrow every download.
 */
export default function ExportPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const filters = filtersFromSearchParams(params);
  const filtered = filtersToSearchParams(filters).toString();
  return (
    <section className="export-page">
      <PageTitle title={t('export.title')} />
      <p>{t('export.intro')}</p>
      {filtered ? (
        <p className="export-filtered" data-testid="export-filtered">
          {t('export.filtered')} <Link to={`${paths.search}?${filtered}`}>{t('export.seeFiltered')}</Link> · <Link to={paths.exportData}>{t('export.allRecords')}</Link>
        </p>
      ) : (
        <p>
          {t('export.narrow')} <Link to={paths.search}>{t('export.searchFirst')}</Link>
        </p>
      )}
      <ul className="export-formats">
        {EXPORT_FORMATS.map((format) => (
          <li key={format.key} data-testid={`export-${format.key}`}>
            <a href={exportHref(format, filters)} download>
              {t(`export.format.${format.key}`)}
            </a>
            <span>{t(`export.format.${format.key}About`)}</span>
          </li>
        ))}
      </ul>
      <h2>{t('export.fieldTitle')}</h2>
      <p>{t('export.fieldIntro')}</p>
      <ul className="export-formats">
        {FIELD_FORMATS.map((format) => (
          <li key={format.key} data-testid={`export-${format.key}`}>
            <a href={format.href} download>
              {t(`export.format.${format.key}`)}
            </a>
            <span>{t(`export.format.${format.key}About`)}</span>
          </li>
        ))}
      </ul>
      <h2>{t('export.columnsTitle')}</h2>
      <p>
        {t('export.columnsAbout')} <a href={DATA_PACKAGE_HREF}>{t('export.columnsLink')}</a>
      </p>
      <p className="export-note">{t('export.fixity')}</p>
      <p>
        <Link to={paths.mirrors}>{t('pages.mirrors')}</Link>: {t('export.mirrorsNote')}
      </p>
    </section>
  );
}
