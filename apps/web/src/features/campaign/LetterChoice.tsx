import { useTranslation } from '../../lib/translate';

/** A country chosen over the sender's own letter: asking whether to replace it, or replaced (with the old words kept). */
export type LetterState = { kind: 'asking'; country: string } | { kind: 'replaced'; previous: string } | null;

/** The question, or the undo, above the letter; nothing otherwise. */
export function LetterChoice({
  state,
  countryName,
  onReplace,
  onKeep,
  onUndo,
}: {
  state: LetterState;
  countryName: string;
  onReplace: () => void;
  onKeep: () => void;
  onUndo: () => void;
}) {
  const { t } = useTranslation();
  if (!state) return null;
  return (
    <div className="campaign-letter-choice" role={state.kind === 'asking' ? 'alert' : 'status'} data-testid="letter-choice">
      {state.kind === 'asking' ? (
        <>
          <p>{t('campaign.replaceAsk', { country: countryName })}</p>
          <div className="campaign-letter-actions">
            <button type="button" className="btn btn-secondary" onClick={onKeep}>
              {t('campaign.keepLetter')}
            </button>
            <button type="button" className="btn" onClick={onReplace}>
              {t('campaign.replaceLetter', { country: countryName })}
            </button>
          </div>
        </>
      ) : (
        <>
          <p>{t('campaign.replaced', { country: countryName })}</p>
          <div className="campaign-letter-actions">
            <button type="button" className="btn btn-secondary" onClick={onUndo}>
              {t('campaign.undoReplace')}
            </button>
          </div>
        </>
      )}
    </div>
  );
}
