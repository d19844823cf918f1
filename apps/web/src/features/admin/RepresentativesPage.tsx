import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { can, type CampaignCountry, type Representative } from '@app/shared';
import { PageTitle } from '../../components/PageTitle';
import { request } from '../../lib/api';
import { formErrors } from '../../lib/formErrors';
import { useTranslation } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { ForbiddenNotice } from './ForbiddenNotice';
import './admin.css';

const directoryKey = ['campaign', 'directory'] as const;
const CORRECTED_FIELDS = ['email', 'unreachable', 'note'] as const;

/** One representative's correction: only the fields the admin changed are sent (the others keep the directory's). */
function RepresentativeRow({ representative }: { representative: Representative }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  const unreachable = !representative.available && Boolean(representative.email);
  const id = `rep-${representative.id}`;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    const note = String(form.get('note') ?? '').trim();
    const nowUnreachable = form.get('unreachable') === 'on';
    const patch: Record<string, unknown> = {};
    if (email !== (representative.email ?? '')) patch.email = email;
    if (nowUnreachable !== unreachable) patch.unreachable = nowUnreachable;
    if (note !== (representative.note ?? '')) patch.note = note;
    setErrors({});
    if (Object.keys(patch).length === 0) {
      setStatus({ ok: true, text: t('admin.nothingChanged') });
      return;
    }
    setPending(true);
    try {
      await request(`/representatives/${encodeURIComponent(representative.id)}`, { method: 'PUT', body: patch });
      setStatus({ ok: true, text: t('admin.representativeSaved', { name: representative.name }) });
      await queryClient.invalidateQueries({ queryKey: directoryKey });
    } catch (err) {
      const split = formErrors(err, CORRECTED_FIELDS);
      setErrors(split.fields as Record<string, string>);
      setStatus(split.general.length ? { ok: false, text: split.general.join(' ') } : null);
    } finally {
      setPending(false);
    }
  };

  return (
    <li className="representative" data-testid="representative">
      <form noValidate onSubmit={(e) => void onSubmit(e)} aria-labelledby={`${id}-name`}>
        <h3 id={`${id}-name`}>
          {representative.name} <small>({representative.district})</small>
        </h3>
        <label>
          {t('admin.representativeEmail')}
          <input name="email" type="email" defaultValue={representative.email ?? ''} aria-invalid={errors.email ? true : undefined} aria-describedby={errors.email ? `${id}-email-error` : undefined} />
        </label>
        {errors.email ? (
          <p className="field-error" id={`${id}-email-error`}>
            {errors.email}
          </p>
        ) : null}
        <label className="representative-check">
          <input name="unreachable" type="checkbox" defaultChecked={unreachable} /> {t('admin.unreachable')}
        </label>
        <label>
          {t('admin.representativeNote')}
          <input name="note" defaultValue={representative.note ?? ''} maxLength={500} aria-invalid={errors.note ? true : undefined} />
        </label>
        {errors.note ? <p className="field-error">{errors.note}</p> : null}
        <button type="submit" className="btn" disabled={pending}>
          {t('common.save')}
        </button>
        {status ? (
          <p className={status.ok ? 'admin-ok' : 'field-error'} role={status.ok ? 'status' : 'alert'}>
            {status.text}
          </p>
        ) : null}
      </form>
    </li>
  );
}

/** A country's default letter (what the campaign form starts from when that country is chosen). */
function DefaultLetter({ country }: { country: CampaignCountry }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState(false);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const message = String(new FormData(event.currentTarget).get('message') ?? '');
    setError(null);
    setSaved(false);
    setPending(true);
    try {
      await request(`/campaign/defaults/${encodeURIComponent(country.code)}`, { method: 'PUT', body: { message } });
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: directoryKey });
    } catch (err) {
      const split = formErrors(err, ['message']);
      setError(split.fields.message ?? split.general.join(' '));
    } finally {
      setPending(false);
    }
  };
  return (
    <form className="default-letter" noValidate onSubmit={(e) => void onSubmit(e)}>
      <label htmlFor="default-letter">{t('admin.defaultLetter', { country: country.name })}</label>
      <textarea id="default-letter" name="message" rows={10} defaultValue={country.defaultMessage} key={country.code} aria-invalid={error ? true : undefined} />
      {error ? <p className="field-error">{error}</p> : null}
      <button type="submit" className="btn" disabled={pending}>
        {t('common.save')}
      </button>
      {saved ? (
        <p className="admin-ok" role="status">
          {t('admin.defaultLetterSaved')}
        </p>
      ) : null}
    </form>
  );
}

/** /admin/representatives: corrections to the campaign's directory of representatives (admin, super). */
export default function RepresentativesPage() {
  const { t } = useTranslation();
  const user = useSession();
  const allowed = can.manageDirectory(user);
  const directory = useQuery({
    queryKey: directoryKey,
    queryFn: ({ signal }) => request<CampaignCountry[]>('/campaign/directory', { signal }),
    enabled: allowed,
  });
  const [countryCode, setCountryCode] = useState('');
  const [provinceName, setProvinceName] = useState('');

  const title = t('pages.representatives');
  if (!allowed) return <ForbiddenNotice title={title} />;
  const country = directory.data?.find((c) => c.code === countryCode);
  const province = country?.provinces.find((p) => p.name === provinceName);

  return (
    <section className="representatives-page">
      <PageTitle title={title} />
      <p>{t('admin.representativesIntro')}</p>
      {directory.isPending ? <p role="status">{t('common.loading')}</p> : null}
      {directory.error ? <p className="error-notice" role="alert">{directory.error.message}</p> : null}
      <div className="admin-filter">
        <label>
          {t('campaign.country')}
          <select
            value={countryCode}
            onChange={(e) => {
              setCountryCode(e.target.value);
              setProvinceName('');
            }}
          >
            <option value="">{t('campaign.chooseCountry')}</option>
            {(directory.data ?? []).map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('campaign.province')}
          <select value={provinceName} disabled={!country} onChange={(e) => setProvinceName(e.target.value)}>
            <option value="">{t('campaign.chooseProvince')}</option>
            {(country?.provinces ?? []).map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {country ? <DefaultLetter key={country.code} country={country} /> : null}
      {province ? (
        <ul className="representative-list">
          {province.representatives.map((r) => (
            <RepresentativeRow key={`${r.id}:${r.email}:${r.available}:${r.note}`} representative={r} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
