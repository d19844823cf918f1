import { useTranslation } from '../../lib/i18n';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { MERGED_PARAM, dataFields, isUuid, paths, type CategoryDef, type RecordDto } from '@app/shared';
import { Markdown } from '../../components/Markdown';
import { NotFound } from '../../components/NotFound';
import { PageTitle } from '../../components/PageTitle';
import { ShareControl } from '../../components/ShareControl';
import { ErrorNotice, Loading } from '../../components/Status';
import { ApiError } from '../../lib/api';
import { brand } from '../../lib/brand';
import { formatDate } from '../../lib/dates';
import { useSession } from '../../lib/session';
import { useRecord } from './api';
import { ConfirmedStatus } from './ConfirmedStatus';
import { viewOf } from './categoryViews';
import { FieldValue } from './FieldValue';
import { PrivateMark } from './PrivateMark';
import { CAPTURED_FIELDS, CaptureControls, CitedLinks } from './LinkCaptures';
import { RecordActions } from './RecordActions';
import { EvidencePackageLinks } from './EvidencePackageLinks';
import { IncidentLink, IncidentPeople, SourcesList } from './RecordLinks';
import { EvidenceFixity, RecordMedia } from './RecordMedia';
import { useCategoryFromPath } from './useCategoryFromPath';
import './public.css';

/** Fields the title block, description and happened-on date already show. */
const SHOWN_ELSEWHERE = new Set(['title', 'subtitle', 'description', 'createdAt', 'remark', 'incidentId', 'sources']);

function RecordFacts({ category, record }: { category: CategoryDef; record: RecordDto }) {
  const { t } = useTranslation();
  const { ownFields } = viewOf(category);
  const fields = dataFields(category).filter(
    (f) =>
      !SHOWN_ELSEWHERE.has(f.name) &&
      !ownFields.has(f.name) &&
      record[f.name] !== null &&
      record[f.name] !== undefined &&
      record[f.name] !== '',
  );
  if (fields.length === 0) return null;
  return (
    <dl className="facts">
      {fields.map((field) => (
        <div key={field.name}>
          <dt>{t(field.label)}</dt>
          <dd>
            {CAPTURED_FIELDS.has(field.name) ? (
              <CitedLinks category={category} record={record} field={field.name} />
            ) : (
              <FieldValue field={field} record={record} />
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** One record, driven by its category's registry entry. */
export default function DetailPage() {
  const { t, i18n } = useTranslation();
  const category = useCategoryFromPath();
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  const user = useSession();
  const wellFormed = isUuid(id);
  const { data: record, error, isPending, refetch } = useRecord(category.slug, id, wellFormed);
  const listName = t(`browse.${category.slug}`);
  const back = { to: paths.list(category.slug), label: t('record.backToList', { list: listName }) };
  const notFound = <NotFound message={t('record.notFound')} back={back} />;

  // An address that cannot name a record is answered at once (and by the server with 404), without asking the API.
  if (!wellFormed) return notFound;
  if (isPending) {
    return (
      <>
        <PageTitle title={t(category.singular)} className="visually-hidden" />
        <Loading />
      </>
    );
  }
  if (error || !record) {
    const missing = error instanceof ApiError && error.status === 404;
    // Non-public massacres and events answer 404 to signed-out readers (as unknown ones do, so a private record's
    // existence is not told): they go to the list, which says why.
    if (missing && !user && category.hasAccessToggle) {
      // The server (a reader without the app, or before it starts) says so at the address, at once; the app, which
      // knows a signed-out reader from an editor, sends the reader on to the list with the same words.
      if (typeof window === 'undefined') return <NotFound message={t('record.notPublic')} back={back} />;
      return <Navigate to={paths.list(category.slug)} replace state={{ notice: t('record.notPublic') }} />;
    }
    if (missing) return notFound;
    return (
      <>
        <PageTitle title={t(category.singular)} />
        <ErrorNotice error={error} onRetry={() => void refetch()} />
      </>
    );
  }

  // A record merged into another (the same person recorded twice) is answered with the kept one (the API redirects):
  // the address becomes the kept record's.
  // It says so there (MERGED_PARAM), as the server's redirect of the old page does.
  if (record._id !== id.toLowerCase()) return <Navigate to={`${paths.detail(category.slug, record._id)}?${MERGED_PARAM}=1`} replace />;
  const shareUrl = `${brand.publicUrl}${paths.detail(category.slug, record._id)}`;
  const Details = viewOf(category).details;
  return (
    <article className={`record-detail record-detail-${category.slug}`}>
      <header className="detail-header">
        <PageTitle title={record.title} className="detail-title" alwaysShown />
        {record.subtitle ? <p className="detail-subtitle">{record.subtitle}</p> : null}
        <p className="detail-meta">
          <time dateTime={record.createdAt} data-testid="published-date">
            {t('record.published', { date: formatDate(record.createdAt, i18n.language) })}
          </time>{' '}
          <PrivateMark record={record} />
          <ConfirmedStatus category={category} record={record} />
        </p>
        <RecordActions record={record} />
        <EvidencePackageLinks record={record} />
      </header>
      {search.get(MERGED_PARAM) === '1' ? (
        <p className="route-notice merged-notice" role="status">
          {t('record.mergedHere')}
        </p>
      ) : null}
      <RecordMedia category={category} record={record} />
      {Details ? <Details record={record} /> : null}
      <IncidentLink record={record} />
      <RecordFacts category={category} record={record} />
      <Markdown className="markdown detail-description">{record.description}</Markdown>
      <IncidentPeople category={category} record={record} />
      <SourcesList record={record} />
      <CaptureControls category={category} record={record} />
      <ShareControl url={shareUrl} />
      <EvidenceFixity record={record} />
    </article>
  );
}
