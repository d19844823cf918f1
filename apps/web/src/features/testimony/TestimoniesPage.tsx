import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { can, paths, PICKER_CATEGORIES, recordDraft, TESTIMONY_STATUSES, type TestimonyStatus } from '@app/shared';
import { PageTitle } from '../../components/PageTitle';
import { ApiError } from '../../lib/api';
import { formatDate } from '../../lib/dates';
import { useTranslation } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { ask, createKey, downloadFile, lock, setStatus, unlock, useKeyState, useQueue, useReviewAction, useTestimony } from './api';
import { storeDraft } from './draft';
import './testimony.css';

const message = (err: unknown) => (err instanceof ApiError ? Object.values(err.fields).join(' ') : err ? String(err) : '');

/** /admin/testimonies: the reviewers' queue. Nothing is decrypted until the reviewer unlocks the intake key. */
export default function TestimoniesPage() {
  const { t } = useTranslation();
  const user = useSession();
  const key = useKeyState();
  const [status, setFilter] = useState<TestimonyStatus | ''>('');
  const [open, setOpen] = useState<string | null>(null);
  const queue = useQueue(status, Boolean(key.data));
  const title = t('testimony.title');
  if (!can.readAudit(user) || key.error) return <section className="testimonies"><PageTitle title={title} /><p role="alert">{message(key.error) || t('admin.forbidden')}</p></section>;
  return (
    <section className="testimonies">
      <PageTitle title={title} />
      <p>{t('testimony.intro')}</p>
      {key.data && !key.data.exists ? <CreateKey /> : null}
      {key.data?.exists && !key.data.unlocked ? <Unlock /> : null}
      {key.data?.unlocked ? <LockButton /> : null}
      <label htmlFor="testimony-status">{t('testimony.filter')}</label>{' '}
      <select id="testimony-status" value={status} onChange={(e) => setFilter(e.currentTarget.value as TestimonyStatus | '')}>
        <option value="">{t('testimony.all')}</option>
        {TESTIMONY_STATUSES.map((s) => (
          <option key={s} value={s}>{t(`testimony.status.${s}`)}</option>
        ))}
      </select>
      <ul className="testimony-queue" aria-label={t('testimony.queue')}>
        {(queue.data ?? []).map((item) => (
          <li key={item.id} data-testid="testimony-item">
            <button type="button" className="link-button" aria-expanded={open === item.id} onClick={() => setOpen(open === item.id ? null : item.id)} disabled={!key.data?.unlocked}>
              {formatDate(item.createdAt, 'en')} · {t(`testimony.status.${item.status}`)}
            </button>{' '}
            {item.unverified ? <strong className="testimony-unverified">{t('testimony.unverified')}</strong> : null}{' '}
            <span>{t('testimony.counts', { files: item.files, messages: item.messages })}</span>
            {open === item.id ? <Detail id={item.id} /> : null}
          </li>
        ))}
      </ul>
      {queue.data?.length === 0 ? <p>{t('testimony.empty')}</p> : null}
    </section>
  );
}

function CreateKey() {
  const { t } = useTranslation();
  const create = useReviewAction(createKey);
  const recoveryKey = (create.data as { recoveryKey?: string } | undefined)?.recoveryKey;
  const [passphrase, setPassphrase] = useState('');
  if (recoveryKey) return <div className="testimony-recovery" role="status"><p>{t('testimony.recoveryShown')}</p><p><code data-testid="recovery-key">{recoveryKey}</code></p></div>;
  return (
    <form onSubmit={(e: FormEvent) => (e.preventDefault(), create.mutate({ passphrase }))}>
      <h2>{t('testimony.createKey')}</h2>
      <p>{t('testimony.createKeyAbout')}</p>
      <label htmlFor="new-passphrase">{t('testimony.passphrase')}</label>
      <input id="new-passphrase" type="password" autoComplete="new-password" value={passphrase} onChange={(e) => setPassphrase(e.currentTarget.value)} />
      <button type="submit" disabled={create.isPending}>{t('testimony.createKey')}</button>
      {create.error ? <p role="alert">{message(create.error)}</p> : null}
    </form>
  );
}

function Unlock() {
  const { t } = useTranslation();
  const action = useReviewAction(unlock);
  const [passphrase, setPassphrase] = useState('');
  return (
    <form onSubmit={(e: FormEvent) => (e.preventDefault(), action.mutate({ passphrase }))}>
      <label htmlFor="unlock-passphrase">{t('testimony.passphrase')}</label>
      <input id="unlock-passphrase" type="password" autoComplete="current-password" value={passphrase} onChange={(e) => setPassphrase(e.currentTarget.value)} />
      <button type="submit" disabled={action.isPending}>{t('testimony.unlock')}</button>
      {action.error ? <p role="alert">{message(action.error)}</p> : null}
    </form>
  );
}

function LockButton() {
  const { t } = useTranslation();
  const action = useReviewAction(lock);
  return <p><button type="button" onClick={() => action.mutate(undefined)}>{t('testimony.lock')}</button></p>;
}

function Detail({ id }: { id: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const testimony = useTestimony(id);
  const write = useReviewAction(ask);
  const move = useReviewAction(setStatus);
  const [text, setText] = useState('');
  const [category, setCategory] = useState<string>(PICKER_CATEGORIES[0]!.slug);
  const data = testimony.data;
  if (testimony.error) return <p role="alert">{message(testimony.error)}</p>;
  if (!data) return <p>{t('common.loading')}</p>;
  const e = data.envelope;
  const rows: [string, string][] = [
    [t('testimony.fields.happenedOn'), e.happenedOn],
    [t('testimony.fields.place'), [e.region, e.zone, e.woreda, e.place].filter(Boolean).join(', ')],
    [t('testimony.fields.people'), e.people],
    [t('testimony.fields.contact'), e.contact],
    [t('testimony.fields.consent'), e.consent.map((c) => t(`testimony.consent.${c}`)).join(', ')],
  ];
  const makeRecord = () => {
    const def = PICKER_CATEGORIES.find((c) => c.slug === category)!;
    storeDraft({ draft: recordDraft(def, data), testimonyId: id });
    void navigate(`${paths.dashboard}?category=${def.slug}&fromTestimony=1`);
  };
  return (
    <div className="testimony-detail">
      <p className="testimony-statement" data-testid="testimony-statement">{e.statement}</p>
      <dl>{rows.filter(([, v]) => v).map(([k, v]) => <div key={k}><dt>{k}</dt><dd>{v}</dd></div>)}</dl>
      {data.fileList.length ? (
        <ul aria-label={t('testimony.files')}>
          {data.fileList.map((f) => (
            <li key={f.id}><button type="button" className="link-button" onClick={() => void downloadFile(id, f)}>{f.name}</button> ({f.type}, {Math.ceil(f.size / 1024)} KB, SHA-256 <code>{f.sha256.slice(0, 12)}…</code>)</li>
          ))}
        </ul>
      ) : null}
      <h3>{t('testimony.messages')}</h3>
      {data.messageList.map((m, i) => <p key={i} className="testimony-message"><strong>{t(`testimony.author.${m.author}`)}</strong>: {m.text}</p>)}
      <form onSubmit={(ev: FormEvent) => (ev.preventDefault(), write.mutate({ id, text }, { onSuccess: () => setText('') }))}>
        <label htmlFor={`ask-${id}`}>{t('testimony.ask')}</label>
        <textarea id={`ask-${id}`} value={text} onChange={(ev) => setText(ev.currentTarget.value)} />
        <button type="submit" disabled={write.isPending || !text.trim()}>{t('testimony.send')}</button>
      </form>
      <p>
        {TESTIMONY_STATUSES.filter((s) => s !== data.status && s !== 'used').map((s) => (
          <button key={s} type="button" onClick={() => move.mutate({ id, status: s })}>{t(`testimony.moveTo.${s}`)}</button>
        ))}
      </p>
      <p>
        <label htmlFor={`category-${id}`}>{t('testimony.recordCategory')}</label>{' '}
        <select id={`category-${id}`} value={category} onChange={(ev) => setCategory(ev.currentTarget.value)}>
          {PICKER_CATEGORIES.map((c) => <option key={c.slug} value={c.slug}>{t(c.pickerLabel)}</option>)}
        </select>{' '}
        <button type="button" onClick={makeRecord}>{t('testimony.createRecord')}</button>
      </p>
      {write.error || move.error ? <p role="alert">{message(write.error ?? move.error)}</p> : null}
    </div>
  );
}
