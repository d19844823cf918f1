import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CategoryDef, LinkCaptureDto, RecordCapturesDto, RecordDto } from '@app/shared';
import { CopyButton } from '../../components/CopyButton';
import { Island } from '../../islands/Island';
import { ErrorNotice } from '../../components/Status';
import { request } from '../../lib/api';
import { formatDate } from '../../lib/dates';
import { useTranslation } from '../../lib/translate';
import { useWhenNear } from '../../lib/useWhenNear';
import { ActionFeedback, useFailureText, type Feedback } from './ActionFeedback';
import { captureKey as k } from './captureStrings';
import './LinkCaptures.css';

/** The URLs a record cites, as the server captures them: a links record's linkURL, a massacre's evidence. */
export function citedLinks(record: RecordDto): string[] {
  const evidence = typeof record.evidence === 'string' ? record.evidence.split(', ') : [];
  const urls = [typeof record.linkURL === 'string' ? record.linkURL : '', ...evidence].map((url) => url.trim()).filter(Boolean);
  return [...new Set(urls)];
}

/** Under the category's key (recordKeys), so a write to the record refetches its captures too. */
const capturesKey = (record: RecordDto) => ['records', record.category, 'captures', record._id] as const;

/** A SHA-256, shortened so it fits a phone's line, whole in its title and in what the copy button copies. */
function CaptureHash({ label, sha256, testId }: { label: string; sha256: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <span className="capture-hash">
      <span className="capture-hash-label">{label}</span>{' '}
      <code title={sha256} data-testid={testId} data-sha256={sha256}>
        {sha256.slice(0, 12)}…
      </code>{' '}
      <Island name="copy" component={CopyButton} props={{ text: sha256, label: t(k('copyHash')) }} />
    </span>
  );
}

/**
 * A capture's state in plain words. Why a capture failed is sent to the record's editors only (it can tell what the
 * server's network resolves); every other reader is told that the page could not be archived.
 */
function CaptureState({ capture }: { capture: LinkCaptureDto }) {
  const { t } = useTranslation();
  if (capture.status === 'failed') {
    return (
      <span className="capture-failed">
        {t(k('failed'))}
        {capture.reason ? <span className="capture-reason">{t(k('reason'), { reason: capture.reason })}</span> : null}
      </span>
    );
  }
  return (
    <span className="capture-pending">
      {t(k(capture.status === 'processing' ? 'processing' : 'waiting'))}
      {capture.reason ? <span className="capture-reason">{t(k('reason'), { reason: capture.reason })}</span> : null}
    </span>
  );
}

function CaptureLine({ capture }: { capture: LinkCaptureDto }) {
  const { t, i18n } = useTranslation();
  if (capture.status !== 'done' || !capture.capturedAt) return <CaptureState capture={capture} />;
  const archived = t(k('archived'), { date: formatDate(capture.capturedAt, i18n.language) });
  return (
    <span className="capture-done">
      {capture.screenshot?.url ? (
        <a href={capture.screenshot.url} target="_blank" rel="noopener noreferrer">
          {archived}
        </a>
      ) : (
        archived
      )}{' '}
      <span className="capture-status">
        {t(k('httpStatus'), { status: capture.httpStatus })}
        {capture.firstLoad
          ? ` · ${t(k('replaced'), { first: capture.firstLoad.url, firstStatus: capture.firstLoad.status, url: capture.finalUrl })}`
          : capture.finalUrl && capture.finalUrl !== capture.url
            ? ` · ${t(k('redirected'), { url: capture.finalUrl })}`
            : ''}
      </span>
      {capture.screenshot ? <CaptureHash label={t(k('screenshotHash'))} sha256={capture.screenshot.sha256} testId="capture-sha256" /> : null}
      {capture.snapshot?.url ? (
        <span className="capture-download">
          <a href={capture.snapshot.url} download>
            {t(k('download'))}
          </a>
          <CaptureHash label={t(k('archiveHash'))} sha256={capture.snapshot.sha256} />
        </span>
      ) : null}
      {capture.wacz?.url ? (
        <span className="capture-download">
          <a href={capture.wacz.url} download>
            {t(k('downloadWacz'))}
          </a>
          <CaptureHash label={t(k('waczHash'))} sha256={capture.wacz.sha256} />
        </span>
      ) : null}
    </span>
  );
}

/** Field names whose links are captured (the server's CAPTURED_FIELDS). */
export const CAPTURED_FIELDS = new Set(['linkURL', 'evidence']);

/**
 * A record's captures. Fetched in the browser only, once `wanted`: captures finish in the background, and a page
 * rendered on the server (and cached) would show them stale.
 */
function useRecordCaptures(category: CategoryDef, record: RecordDto, wanted: boolean) {
  const base = `/${category.slug}/${encodeURIComponent(record._id)}/captures`;
  const query = useQuery({
    queryKey: capturesKey(record),
    queryFn: ({ signal }) => request<RecordCapturesDto>(base, { signal }),
    enabled: wanted && citedLinks(record).length > 0,
  });
  return { base, query };
}

/**
 * The value of a field that cites links, each link with its capture beside it: the newest that succeeded ("Archived
 * <date>" opening the screenshot, with the SHA-256), else the newest attempt (pending, or failed with its reason),
 * and every capture of the link under "All captures".
 */
export function CitedLinks({ category, record, field }: { category: CategoryDef; record: RecordDto; field: string }) {
  const { t } = useTranslation();
  const rootRef = useRef<HTMLUListElement>(null);
  const [near] = useWhenNear(rootRef);
  const { query } = useRecordCaptures(category, record, near);
  const value = record[field];
  const links = typeof value === 'string' ? [...new Set(value.split(', ').map((url) => url.trim()).filter(Boolean))] : [];
  const data = query.data;
  return (
    <ul className="link-list cited-links" ref={rootRef}>
      {links.map((url) => {
        const captures = data?.captures.filter((c) => c.url === url) ?? [];
        const shown = captures.find((c) => c.status === 'done') ?? captures[0];
        return (
          <li key={url}>
            <a href={url} target="_blank" rel="noopener noreferrer">
              {url}
            </a>
            {shown ? (
              <span className="capture">
                <CaptureLine capture={shown} />
              </span>
            ) : data ? (
              <span className="capture capture-pending">{t(k('notYet'))}</span>
            ) : null}
            {captures.length > 1 ? (
              <details className="capture">
                <summary>{t(k('history'), { count: captures.length })}</summary>
                <ul>
                  {captures.map((c) => (
                    <li key={c.id}>
                      <CaptureLine capture={c} />
                    </li>
                  ))}
                </ul>
              </details>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Below the record, for the readers the server allows them: ask for new captures (the record's editors), and let
 * every reader download the archives (admins). Every outcome is announced.
 */
export function CaptureControls({ category, record }: { category: CategoryDef; record: RecordDto }) {
  const { t } = useTranslation();
  const failure = useFailureText();
  const queryClient = useQueryClient();
  const rootRef = useRef<HTMLDivElement>(null);
  const [near] = useWhenNear(rootRef);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const { base, query } = useRecordCaptures(category, record, near);
  const refresh = () => queryClient.invalidateQueries({ queryKey: capturesKey(record) });
  const captureAgain = useMutation({ mutationFn: () => request<unknown>(base, { method: 'POST', body: {} }), onSuccess: refresh });
  const setPublic = useMutation({
    mutationFn: (publicDownload: boolean) => request<RecordCapturesDto>(`${base}/settings`, { method: 'PUT', body: { publicDownload } }),
    onSuccess: refresh,
  });
  const data = query.data;
  if (citedLinks(record).length === 0) return null;
  return (
    <div className="capture-controls" ref={rootRef}>
      {query.error ? <ErrorNotice error={query.error} onRetry={() => void query.refetch()} /> : null}
      {data?.canRequest ? (
        <button
          type="button"
          disabled={captureAgain.isPending}
          onClick={() => {
            setFeedback(null);
            captureAgain.mutate(undefined, {
              onSuccess: () => setFeedback({ kind: 'ok', text: t(k('requested')) }),
              onError: (err) => setFeedback({ kind: 'error', text: failure(t(k('requestAction')), err) }),
            });
          }}
        >
          {t(k('again'))}
        </button>
      ) : null}
      {data?.canConfigure ? (
        <label className="capture-setting">
          <input
            type="checkbox"
            checked={data.publicDownload}
            disabled={setPublic.isPending}
            onChange={(event) => {
              setFeedback(null);
              setPublic.mutate(event.target.checked, {
                onSuccess: () => setFeedback({ kind: 'ok', text: t(k('settingSaved')) }),
                onError: (err) => setFeedback({ kind: 'error', text: failure(t(k('settingAction')), err) }),
              });
            }}
          />{' '}
          {t(k('publicDownload'))}
        </label>
      ) : null}
      {data?.canRequest || data?.canConfigure ? <ActionFeedback feedback={feedback} /> : null}
    </div>
  );
}
