import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/translate';
import { CAMPAIGN_MESSAGE_ROWS } from '@app/shared';
import { FormAlert } from '../../components/FormField';
import { ErrorNotice } from '../../components/Status';
import { sendLetter, useDirectory } from './api';
import {
  CAMPAIGN_FIELDS,
  applyCascade,
  authorityEmailOf,
  chosenRepresentative,
  defaultLetterOf,
  emptyValues,
  letterEdited,
  letterBody,
  provincesOf,
  representativesOf,
  type CampaignField,
  type CampaignValues,
  type CascadeAction,
  type FoundRepresentative,
} from './cascade';
import { LetterChoice, type LetterState } from './LetterChoice';
import { RepresentativeSearch } from './RepresentativeSearch';
import { formErrors } from '../../lib/formErrors';
import { SelectField, TextAreaField, TextField } from './fields';
import { useWhenNear } from '../../lib/useWhenNear';
import './campaign.css';

type TextFieldName = Exclude<CampaignField, 'country' | 'province' | 'district'>;

/**
 * The home page's campaign form: write to an elected representative in Canada or Australia. Shown through
 * the home page's `campaignForm` slot, which renders the heading. The directory is fetched only when the form comes
 * near the viewport or is focused. Nothing typed is lost on a failed send; after a send the server's notice asks the
 * sender to confirm by e-mail.
 */
export default function CampaignForm() {
  const { t } = useTranslation();
  const rootRef = useRef<HTMLDivElement>(null);
  const [wanted, wantNow] = useWhenNear(rootRef);
  const directory = useDirectory(wanted);
  const [values, setValues] = useState<CampaignValues>(emptyValues);
  const [errors, setErrors] = useState<Partial<Record<CampaignField, string>>>({});
  const [general, setGeneral] = useState<string[]>([]);
  const [pending, setPending] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const [refusals, setRefusals] = useState(0);
  // A country chosen over the sender's own letter: asked whether to replace it, then offered to undo the replacement.
  const [letter, setLetter] = useState<LetterState>(null);

  const data = directory.data;
  const dispatch = useCallback(
    (action: CascadeAction, clears: CampaignField[]) => {
      setValues((current) => applyCascade(data, current, action));
      setErrors((current) => {
        if (!clears.some((f) => current[f])) return current;
        const next = { ...current };
        for (const f of clears) delete next[f];
        return next;
      });
    },
    [data],
  );
  const onText = (name: TextFieldName) => (event: { target: { value: string } }) => {
    if (name === 'message' && letter?.kind === 'replaced') setLetter(null);
    dispatch({ type: 'field', name, value: event.target.value }, [name]);
  };

  /**
   * A country (or a representative, found by the search box) is chosen. The sender's own letter is not thrown away:
   * when the new country's default letter would replace it, it stays and the form asks.
   */
  const chooseCountry = (code: string, rest?: Pick<FoundRepresentative, 'province' | 'district'>) => {
    const asks = code !== '' && code !== values.country && letterEdited(data, values) && defaultLetterOf(data, code) !== '';
    const clears: CampaignField[] = ['country', 'province', 'district', ...(asks ? [] : ['message' as const])];
    if (rest) dispatch({ type: 'representative', country: code, province: rest.province, district: rest.district, keepMessage: asks }, clears);
    else dispatch({ type: 'country', code, keepMessage: asks }, clears);
    setLetter(asks ? { kind: 'asking', country: code } : null);
  };
  const replaceLetter = () => {
    if (letter?.kind !== 'asking') return;
    setLetter({ kind: 'replaced', previous: values.message });
    dispatch({ type: 'field', name: 'message', value: defaultLetterOf(data, letter.country) }, ['message']);
  };
  const undoReplace = () => {
    if (letter?.kind !== 'replaced') return;
    dispatch({ type: 'field', name: 'message', value: letter.previous }, ['message']);
    setLetter(null);
  };

  // After a refused send, move focus to the first field marked invalid, in the order the form shows them.
  useEffect(() => {
    if (refusals > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);

  const provinces = provincesOf(data, values);
  const representatives = representativesOf(data, values);
  const unavailable = representatives.filter((r) => !r.available);
  const representative = chosenRepresentative(data, values);
  const authorityEmail = authorityEmailOf(data, values);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setErrors({});
    setGeneral([]);
    setPending(true);
    try {
      const sent = await sendLetter(letterBody(data, values));
      setNotice(sent.notice);
    } catch (error) {
      const split = formErrors(error, CAMPAIGN_FIELDS);
      setErrors(split.fields);
      const anyField = Object.keys(split.fields).length > 0;
      setGeneral(anyField ? [t('campaign.fixFields'), ...split.general] : split.general);
      if (anyField) setRefusals((n) => n + 1);
    } finally {
      setPending(false);
    }
  }

  function writeAnother() {
    dispatch({ type: 'anotherLetter' }, []);
    setNotice(null);
  }

  return (
    <div className="campaign" ref={rootRef} onFocus={wantNow} onPointerEnter={wantNow}>
      {/* Always present, so the notice that replaces the form is announced. */}
      <div className="campaign-notice" role="status">
        {notice ? (
          <>
            <p className="campaign-notice-title">{t('campaign.checkEmail')}</p>
            <p>{notice}</p>
          </>
        ) : null}
      </div>
      {notice ? (
        <button type="button" className="btn btn-secondary" onClick={writeAnother}>
          {t('campaign.writeAnother')}
        </button>
      ) : (
        <form ref={formRef} className="campaign-form" noValidate onSubmit={(e) => void onSubmit(e)} aria-busy={pending || undefined}>
          <p className="campaign-intro">{t('campaign.intro')}</p>
          <FormAlert messages={general} />

          <fieldset>
            <legend>{t('campaign.yourRepresentative')}</legend>
            <RepresentativeSearch directory={data} onPick={(rep) => chooseCountry(rep.country, rep)} />
            <SelectField
              name="country"
              label={t('campaign.country')}
              value={values.country}
              error={errors.country}
              aria-busy={directory.isFetching || undefined}
              hint={directory.isPending && wanted ? t('campaign.loadingDirectory') : undefined}
              onChange={(e) => chooseCountry(e.target.value)}
            >
              <option value="">{t('campaign.chooseCountry')}</option>
              {(data ?? []).map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </SelectField>
            {directory.isError ? <ErrorNotice error={directory.error} onRetry={() => void directory.refetch()} /> : null}
            <SelectField
              name="province"
              label={t('campaign.province')}
              value={values.province}
              error={errors.province}
              disabled={provinces.length === 0}
              onChange={(e) => dispatch({ type: 'province', name: e.target.value }, ['province', 'district'])}
            >
              <option value="">{t('campaign.chooseProvince')}</option>
              {provinces.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name}
                </option>
              ))}
            </SelectField>
            <SelectField
              name="district"
              label={t('campaign.district')}
              value={values.district}
              error={errors.district}
              disabled={representatives.length === 0}
              describedByExtra={unavailable.length > 0 ? 'campaign-unavailable' : undefined}
              onChange={(e) => dispatch({ type: 'district', district: e.target.value }, ['district'])}
            >
              <option value="">{t('campaign.chooseDistrict')}</option>
              {representatives.map((r) =>
                r.available ? (
                  <option key={r.id} value={r.district}>
                    {t('campaign.districtOption', { district: r.district, name: r.name })}
                  </option>
                ) : (
                  <option key={r.id} value={r.district} disabled>
                    {t('campaign.districtUnavailable', { district: r.district, name: r.name })}
                  </option>
                ),
              )}
            </SelectField>
            {unavailable.length > 0 ? (
              <div className="campaign-unavailable" id="campaign-unavailable">
                <p>{t('campaign.unavailableTitle')}</p>
                <ul>
                  {unavailable.map((r) => (
                    <li key={r.id}>
                      <strong>{r.name}</strong> ({r.district}): {r.note ?? t('campaign.noEmail')}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            <div className="campaign-representative" aria-live="polite" data-testid="campaign-representative">
              {representative ? (
                <p>
                  {t('campaign.representative', { name: representative.name })}
                  {representative.party ? ` ${t('campaign.party', { party: representative.party })}` : ''}
                </p>
              ) : null}
            </div>
            {representative ? (
              <TextField name="authorityEmail" label={t('campaign.authorityEmail')} type="email" value={authorityEmail} readOnly />
            ) : null}
          </fieldset>

          <LetterChoice
            state={letter}
            countryName={data?.find((c) => c.code === (letter?.kind === 'asking' ? letter.country : values.country))?.name ?? ''}
            onReplace={replaceLetter}
            onKeep={() => setLetter(null)}
            onUndo={undoReplace}
          />
          <TextAreaField
            name="message"
            label={t('campaign.message')}
            rows={CAMPAIGN_MESSAGE_ROWS}
            value={values.message}
            error={errors.message}
            hint={t('campaign.messageHint')}
            onChange={onText('message')}
          />

          <fieldset>
            <legend>{t('campaign.yourDetails')}</legend>
            <p className="field-hint">{t('campaign.detailsHint')}</p>
            <div className="campaign-pair">
              <TextField name="firstName" label={t('campaign.firstName')} autoComplete="given-name" value={values.firstName} error={errors.firstName} onChange={onText('firstName')} />
              <TextField name="lastName" label={t('campaign.lastName')} autoComplete="family-name" value={values.lastName} error={errors.lastName} onChange={onText('lastName')} />
            </div>
            <TextField name="email" label={t('campaign.email')} type="email" autoComplete="email" value={values.email} error={errors.email} hint={t('campaign.emailHint')} onChange={onText('email')} />
            <TextField name="streetName" label={t('campaign.streetName')} autoComplete="street-address" value={values.streetName} error={errors.streetName} onChange={onText('streetName')} />
            <div className="campaign-pair">
              <TextField name="city" label={t('campaign.city')} autoComplete="address-level2" value={values.city} error={errors.city} onChange={onText('city')} />
              <TextField name="zipcode" label={t('campaign.zipcode')} autoComplete="postal-code" value={values.zipcode} error={errors.zipcode} onChange={onText('zipcode')} />
            </div>
          </fieldset>

          <button type="submit" className="btn" disabled={pending}>
            {pending ? t('campaign.sending') : t('campaign.send')}
          </button>
        </form>
      )}
    </div>
  );
}
