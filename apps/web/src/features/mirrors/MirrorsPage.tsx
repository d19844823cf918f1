import { useState, type FormEvent } from 'react';
import type { KnownMirrorInput } from '@app/shared';
import { PageTitle } from '../../components/PageTitle';
import { ErrorNotice } from '../../components/Status';
import { formErrors } from '../../lib/formErrors';
import { useTranslation } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { useAddMirror, useKnownMirrors, useRemoveMirror } from './api';
import './mirrors.css';

const FIELDS = ['name', 'url', 'fingerprint', 'note'] as const;
type Field = (typeof FIELDS)[number];

/** Admins' form: a copy's keeper, address, key fingerprint and a note; errors under their fields. */
function AddMirrorForm() {
  const { t } = useTranslation();
  const add = useAddMirror();
  const [values, setValues] = useState<Record<Field, string>>({ name: '', url: '', fingerprint: '', note: '' });
  const errors = add.error ? formErrors(add.error, FIELDS) : { fields: {} as Partial<Record<Field, string>>, general: [] };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(values as KnownMirrorInput, { onSuccess: () => setValues({ name: '', url: '', fingerprint: '', note: '' }) });
  };
  return (
    <form className="mirrors-form" onSubmit={submit} noValidate>
      <h2>{t('mirrors.addHeading')}</h2>
      {errors.general.map((message) => (
        <p key={message} role="alert" className="form-error">
          {message}
        </p>
      ))}
      {FIELDS.map((field) => (
        <div key={field} className="mirrors-field">
          <label htmlFor={`mirror-${field}`}>{t(`mirrors.${field}`)}</label>
          <input
            id={`mirror-${field}`}
            value={values[field]}
            onChange={(e) => setValues({ ...values, [field]: e.target.value })}
            aria-invalid={errors.fields[field] ? true : undefined}
            aria-describedby={errors.fields[field] ? `mirror-${field}-error` : undefined}
          />
          {errors.fields[field] ? (
            <p id={`mirror-${field}-error`} className="field-error">
              {errors.fields[field]}
            </p>
          ) : null}
        </div>
      ))}
      <button type="submit" className="btn" disabled={add.isPending}>
        {t('mirrors.add')}
      </button>
      {add.isSuccess ? <p role="status">{t('mirrors.added')}</p> : null}
    </form>
  );
}

/** /mirrors: copies of the public site that others keep (docs/mirror.md), each with its key's fingerprint. */
export default function MirrorsPage() {
  const { t } = useTranslation();
  const mirrors = useKnownMirrors();
  const remove = useRemoveMirror();
  const user = useSession();
  const isAdmin = user?.role === 'admin' || user?.role === 'super';
  return (
    <section className="mirrors">
      <PageTitle title={t('pages.mirrors')} />
      <p>{t('mirrors.intro')}</p>
      {mirrors.isError ? <ErrorNotice error={mirrors.error} onRetry={() => void mirrors.refetch()} /> : null}
      {mirrors.data ? (
        <>
          <p>
            {t('mirrors.siteKey')} <a href="/.well-known/mirror-key">/.well-known/mirror-key</a>
            <br />
            <code className="mirrors-fingerprint" data-testid="site-key-fingerprint">
              {mirrors.data.siteKeyFingerprint}
            </code>
          </p>
          {mirrors.data.mirrors.length === 0 ? (
            <p>{t('mirrors.none')}</p>
          ) : (
            <ul className="mirrors-list">
              {mirrors.data.mirrors.map((mirror) => (
                <li key={mirror._id}>
                  <h2>{mirror.name}</h2>
                  <p>
                    <a href={mirror.url} rel="noopener noreferrer">
                      {mirror.url}
                    </a>
                  </p>
                  <p>
                    {t('mirrors.fingerprint')}: <code className="mirrors-fingerprint">{mirror.fingerprint}</code>
                  </p>
                  {mirror.note ? <p>{mirror.note}</p> : null}
                  {isAdmin ? (
                    <button type="button" className="btn btn-secondary" onClick={() => remove.mutate(mirror._id)} aria-label={t('mirrors.removeNamed', { name: mirror.name })}>
                      {t('mirrors.remove')}
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : null}
      <p>{t('mirrors.howTo')}</p>
      {isAdmin ? <AddMirrorForm /> : null}
    </section>
  );
}
