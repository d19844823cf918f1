import { goTo } from '../../lib/navigate';
import { useTranslation } from '../../lib/translate';

export type View = 'cards' | 'table';

/** The list's address with the view chosen (kept in the URL: ?view=table), on the first page's position kept. */
function addressOf(view: View): string {
  const params = new URLSearchParams(window.location.search);
  if (view === 'table') params.set('view', 'table');
  else params.delete('view');
  const query = params.toString();
  return `${window.location.pathname}${query ? `?${query}` : ''}`;
}

/**
 * Massacres can be read as cards or as a fact-sheet table; the choice is kept in the URL (?view=table). An island: it
 * works on a reading page without the app (the other view is a page of its own).
 */
export function ViewToggle({ view }: { view: View }) {
  const { t } = useTranslation();
  return (
    <div className="view-toggle" role="group" aria-label={t('record.view')}>
      {(['cards', 'table'] as const).map((v) => (
        <button key={v} type="button" aria-pressed={view === v} onClick={() => (v === view ? undefined : goTo(addressOf(v)))}>
          {v === 'cards' ? t('record.viewCards') : t('record.viewTable')}
        </button>
      ))}
    </div>
  );
}
