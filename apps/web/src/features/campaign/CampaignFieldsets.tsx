import { useTranslation } from '../../lib/translate';
import { ErrorNotice } from '../../components/Status';
import type { useDirectory } from './api';
import {
  authorityEmailOf,
  chosenRepresentative,
  provincesOf,
  representativesOf,
  type CampaignField,
  type CampaignValues,
  type CascadeAction,
  type FoundRepresentative,
} from './cascade';
import { RepresentativeSearch } from './RepresentativeSearch';
import { SelectField, TextField } from './fields';

export type TextFieldName = Exclude<CampaignField, 'country' | 'province' | 'district'>;
type Errors = Partial<Record<CampaignField, string>>;

/**
 * "Your representative": the search box, then country, province and district, each narrowing the next; the
 * representatives without an address to write to, and the one chosen with the authority's address.
 */
export function RepresentativeFieldset({ directory, loading, values, errors, dispatch, chooseCountry }: {
  directory: ReturnType<typeof useDirectory>;
  /** The directory is wanted and on its way. */
  loading: boolean;
  values: CampaignValues;
  errors: Errors;
  dispatch: (action: CascadeAction, clears: CampaignField[]) => void;
  chooseCountry: (code: string, rest?: Pick<FoundRepresentative, 'province' | 'district'>) => void;
}) {
  const { t } = useTranslation();
  const data = directory.data;
  const provinces = provincesOf(data, values);
  const representatives = representativesOf(data, values);
  const unavailable = representatives.filter((r) => !r.available);
  return (
    <fieldset>
      <legend>{t('campaign.yourRepresentative')}</legend>
      <RepresentativeSearch directory={data} onPick={(rep) => chooseCountry(rep.country, rep)} />
      <SelectField
        name="country"
        label={t('campaign.country')}
        value={values.country}
        error={errors.country}
        aria-busy={directory.isFetching || undefined}
        hint={loading ? t('campaign.loadingDirectory') : undefined}
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
      <UnavailableRepresentatives representatives={unavailable} />
      <ChosenRepresentative data={data} values={values} />
    </fieldset>
  );
}

/** The district's representatives without an address to write to, and why. */
function UnavailableRepresentatives({ representatives }: { representatives: ReturnType<typeof representativesOf> }) {
  const { t } = useTranslation();
  if (representatives.length === 0) return null;
  return (
    <div className="campaign-unavailable" id="campaign-unavailable">
      <p>{t('campaign.unavailableTitle')}</p>
      <ul>
        {representatives.map((r) => (
          <li key={r.id}>
            <strong>{r.name}</strong> ({r.district}): {r.note ?? t('campaign.noEmail')}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The representative chosen, and the address the letter goes to. */
function ChosenRepresentative({ data, values }: { data: ReturnType<typeof useDirectory>['data']; values: CampaignValues }) {
  const { t } = useTranslation();
  const representative = chosenRepresentative(data, values);
  return (
    <>
      <div className="campaign-representative" aria-live="polite" data-testid="campaign-representative">
        {representative ? (
          <p>
            {t('campaign.representative', { name: representative.name })}
            {representative.party ? ` ${t('campaign.party', { party: representative.party })}` : ''}
          </p>
        ) : null}
      </div>
      {representative ? <TextField name="authorityEmail" label={t('campaign.authorityEmail')} type="email" value={authorityEmailOf(data, values)} readOnly /> : null}
    </>
  );
}

/** "Your details": the sender's name, e-mail and address. */
export function DetailsFieldset({ values, errors, onText }: {
  values: CampaignValues;
  errors: Errors;
  onText: (name: TextFieldName) => (event: { target: { value: string } }) => void;
}) {
  const { t } = useTranslation();
  return (
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
  );
}
