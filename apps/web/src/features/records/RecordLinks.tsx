import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { citedSources, isIncidentCategory, paths, type CategoryDef, type IncidentRef, type RecordDto, type Source, WITHHELD_SOURCE } from '@app/shared';
import { useTranslation } from '../../lib/i18n';
import { request } from '../../lib/api';

/**
 * What a record's page shows across its links (issue 39): the incident a person belongs to, an incident's people, and
 * the numbered sources. Plain server-rendered components: the people come from the API in the page's data round.
 */

/** "Part of: <incident>" on a person's page, or that the incident is unavailable (trashed). */
export function IncidentLink({ record }: { record: RecordDto }) {
  const { t } = useTranslation();
  const incident = record.incident as IncidentRef | undefined;
  if (!incident) return null;
  if ('unavailable' in incident) return <p className="incident-link" data-testid="incident-link">{t('links.incidentUnavailable')}</p>;
  return (
    <p className="incident-link" data-testid="incident-link">
      {t('links.partOf')} <Link to={paths.detail(incident.category, incident._id)}>{incident.title}</Link>
    </p>
  );
}

interface PeopleAnswer {
  total: number;
  counts: Record<string, number>;
  people: RecordDto[];
}

/** An incident's people, by category, with "N named victims of Q reported killed" beside a massacre's quantity. */
export function IncidentPeople({ category, record }: { category: CategoryDef; record: RecordDto }) {
  const { t } = useTranslation();
  const { data } = useQuery({
    queryKey: ['records', category.slug, 'people', record._id],
    queryFn: ({ signal }) => request<PeopleAnswer>(`/${category.slug}/${record._id}/people`, { query: { limit: 200 }, signal }),
    enabled: isIncidentCategory(category.slug),
  });
  if (!isIncidentCategory(category.slug) || !data) return null;
  const named = data.counts.victims ?? 0;
  const reported = typeof record.quantity === 'number' ? record.quantity : null;
  const groups = Object.keys(data.counts).filter((slug) => data.people.some((p) => p.category === slug));
  return (
    <section className="incident-people" aria-labelledby="incident-people-title" data-testid="incident-people">
      <h2 id="incident-people-title">{t('links.people')}</h2>
      {category.slug === 'massacres' ? (
        <p className="named-count">{reported === null ? t('links.named', { count: named }) : t('links.namedOf', { count: named, reported })}</p>
      ) : null}
      {data.total === 0 ? <p>{t('links.noPeople')}</p> : null}
      {groups.map((slug) => (
        <div key={slug}>
          <h3>{t(`browse.${slug}`)} ({data.counts[slug]})</h3>
          <ul>
            {data.people
              .filter((p) => p.category === slug)
              .map((p) => (
                <li key={p._id}>
                  <Link to={paths.detail(p.category, p._id)}>{typeof p.fullName === 'string' && p.fullName ? p.fullName : p.title}</Link>
                </li>
              ))}
          </ul>
        </div>
      ))}
    </section>
  );
}

function SourceItem({ source }: { source: Source }) {
  const { t } = useTranslation();
  if (source.withheld && !source.note && !source.url && source.title === WITHHELD_SOURCE.title) {
    return <li className="source source-withheld">{t('sources.withheld')}</li>;
  }
  const facts = [source.publisher, source.date, source.language].filter(Boolean).join(' · ');
  return (
    <li className="source">
      <span className="source-kind">{t(`sources.kind.${source.kind}`)}:</span>{' '}
      {source.url ? (
        <a href={source.url} rel="noopener noreferrer nofollow" target="_blank">
          {source.title}
        </a>
      ) : (
        source.title
      )}
      {facts ? <span className="source-facts"> ({facts})</span> : null}
      {source.withheld ? <strong className="source-withheld-mark"> {t('sources.withheldMark')}</strong> : null}
      {source.note ? <p className="source-note">{source.note}</p> : null}
    </li>
  );
}

/** The record's sources, numbered: its own, then a massacre's evidence links. */
export function SourcesList({ record }: { record: RecordDto }) {
  const { t } = useTranslation();
  const sources = citedSources(record);
  if (!sources.length) return null;
  return (
    <section className="record-sources" aria-labelledby="record-sources-title" data-testid="record-sources">
      <h2 id="record-sources-title">{t('sources.heading')}</h2>
      <ol>
        {sources.map((source, i) => (
          <SourceItem key={i} source={source} />
        ))}
      </ol>
    </section>
  );
}
