import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { CampaignField } from './cascade';
import { useTranslation } from '../../lib/translate';
import { CAMPAIGN_MESSAGE_ROWS } from '@app/shared';
import { FormAlert } from '../../components/FormField';
import { sendLetter, useDirectory } from './api';
import { CAMPAIGN_FIELDS, letterBody } from './cascade';
import { LetterChoice } from './LetterChoice';
import { useCampaignLetter } from './useCampaignLetter';
import { formErrors } from '../../lib/formErrors';
import { TextAreaField } from './fields';
import { DetailsFieldset, RepresentativeFieldset } from './CampaignFieldsets';
import { useWhenNear } from '../../lib/useWhenNear';
import './campaign.css';

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
  const data = directory.data;
  const { values, errors, setErrors, dispatch, onText, letter, chooseCountry, replaceLetter, undoReplace, keepLetter } = useCampaignLetter(data);
  const { general, pending, notice, setNotice, formRef, onSubmit } = useLetterSending(() => letterBody(data, values), setErrors);

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

          <RepresentativeFieldset
            directory={directory}
            loading={directory.isPending && wanted}
            values={values}
            errors={errors}
            dispatch={dispatch}
            chooseCountry={chooseCountry}
          />

          <LetterChoice
            state={letter}
            countryName={data?.find((c) => c.code === (letter?.kind === 'asking' ? letter.country : values.country))?.name ?? ''}
            onReplace={replaceLetter}
            onKeep={keepLetter}
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

          <DetailsFieldset values={values} errors={errors} onText={onText} />

          <button type="submit" className="btn" disabled={pending}>
            {pending ? t('campaign.sending') : t('campaign.send')}
          </button>
        </form>
      )}
    </div>
  );
}

/**
 * Sending the letter: at most one send at a time; a refusal keeps everything typed, marks each field the server named
 * and moves focus to the first of them; a send shows the server's notice (confirm by e-mail) in place of the form.
 */
function useLetterSending(body: () => ReturnType<typeof letterBody>, setErrors: (errors: Partial<Record<CampaignField, string>>) => void) {
  const { t } = useTranslation();
  const [general, setGeneral] = useState<string[]>([]);
  const [pending, setPending] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const [refusals, setRefusals] = useState(0);

  // After a refused send, move focus to the first field marked invalid, in the order the form shows them.
  useEffect(() => {
    if (refusals > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);


  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setErrors({});
    setGeneral([]);
    setPending(true);
    try {
      const sent = await sendLetter(body());
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

  return { general, pending, notice, setNotice, formRef, onSubmit };
}
