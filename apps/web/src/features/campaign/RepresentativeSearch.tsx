import { useId, useState } from 'react';
import { useComboboxKeys } from '../../components/useComboboxKeys';
import { useTranslation } from '../../lib/translate';
import type { Directory } from './api';
import { findRepresentatives, type FoundRepresentative } from './cascade';

/**
 * A search box beside the country, province and district lists: type a riding, an electorate or a member's name and
 * pick the representative (ARIA combobox: arrows move through the matches, Enter picks, Escape closes). Members who
 * cannot be written to are listed but cannot be picked.
 */
export function RepresentativeSearch({ directory, onPick }: { directory: Directory | undefined; onPick: (rep: FoundRepresentative) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const matches = findRepresentatives(directory, query);
  const shown = open && query.trim() !== '';
  const listId = `${id}-matches`;
  const optionId = (i: number) => `${id}-match-${i}`;

  const pick = (rep: FoundRepresentative | undefined) => {
    if (!rep?.available) return;
    onPick(rep);
    setQuery('');
    setOpen(false);
  };
  const onKeyDown = useComboboxKeys({
    count: matches.length,
    shown,
    active,
    setActive,
    setOpen,
    // Enter picks a match instead of sending the letter.
    pick: (index) => pick(matches[index]),
    openWhenEmpty: true,
  });

  return (
    <div className="representative-search">
      <label htmlFor={`${id}-input`}>{t('campaign.findLabel')}</label>
      {/* A hint under the label, not a placeholder: a phone's narrow box cut the placeholder off mid-sentence. */}
      <p id={`${id}-hint`} className="field-hint">
        {t('campaign.findHint')}
      </p>
      <input
        id={`${id}-input`}
        type="search"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown && matches[active] ? optionId(active) : undefined}
        aria-describedby={`${id}-hint`}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      <ul id={listId} role="listbox" aria-label={t('campaign.findMatches')} className="representative-matches" hidden={!shown}>
        {shown && matches.length === 0 ? (
          <li role="option" aria-selected={false} aria-disabled="true" className="representative-none">
            {directory ? t('campaign.findNone') : t('campaign.loadingDirectory')}
          </li>
        ) : null}
        {shown
          ? matches.map((rep, i) => (
              <MatchOption key={rep.id} id={optionId(i)} rep={rep} active={i === active} onPick={() => pick(rep)} onHover={() => setActive(i)} />
            ))
          : null}
      </ul>
    </div>
  );
}

/** One match of the list: the district, the member and where; an unavailable member is marked and cannot be picked. */
function MatchOption({ id, rep, active, onPick, onHover }: { id: string; rep: FoundRepresentative; active: boolean; onPick: () => void; onHover: () => void }) {
  const { t } = useTranslation();
  return (
    <li
      id={id}
      role="option"
      aria-selected={active}
      aria-disabled={rep.available ? undefined : 'true'}
      className={active ? 'is-active' : undefined}
      // Picked on pointer down, before the input's blur closes the list.
      onPointerDown={(e) => {
        e.preventDefault();
        onPick();
      }}
      onPointerEnter={onHover}
    >
      <strong>{rep.district}</strong> {rep.name}{' '}
      <small>
        ({rep.province}, {rep.countryName}){rep.available ? '' : ` · ${t('campaign.findUnavailable')}`}
      </small>
    </li>
  );
}
