import { useEffect, useId, useRef, useState } from 'react';
import type { FieldDef, IncidentSuggestion, RecordDto } from '@app/shared';
import { fieldAria } from '../../components/FormField';
import { useComboboxKeys } from '../../components/useComboboxKeys';
import { formatDate } from '../../lib/dates';
import { useTranslation } from '../../lib/i18n';
import { useRecord } from './api';
import { incidentFacts, pickedFrom, storedIncident, suggestionFacts, type PickedIncident } from './incidentFacts';
import { useIncidentSearch } from './incidentSearch';
import './incident-picker.css';

/**
 * The `incident` field of the person forms (issue 39): a search-as-you-type combobox (WAI-ARIA combobox pattern, list
 * autocomplete) over massacres and events. The visible input only searches; the chosen incident's id goes in a hidden
 * input of the field's name, so the form sends what it always sent and the server validates it as before.
 */
interface IncidentPickerProps {
  field: FieldDef;
  /** The input's id and aria attributes (FormField's fieldAria): its label, hint and error. */
  common: ReturnType<typeof fieldAria>;
  record?: RecordDto;
}

export function IncidentPicker({ field, common, record }: IncidentPickerProps) {
  const { t } = useTranslation();
  const box = useIncidentCombobox(storedIncident(record));
  const { listId, pickedId, search } = box;
  // The chosen incident is part of the input's description: a screen reader tells it on reaching the field.
  const describedBy = [common['aria-describedby'], box.picked ? pickedId : null].filter(Boolean).join(' ');
  const open = box.open && search.incidents.length > 0;
  return (
    <div className="incident-picker">
      <div className="incident-picker-box">
        <input
          {...common}
          ref={box.inputRef}
          type="text"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={open && box.active >= 0 ? `${listId}-${box.active}` : undefined}
          aria-describedby={describedBy || undefined}
          value={box.text}
          onChange={(e) => box.type(e.currentTarget.value)}
          onKeyDown={box.onKeyDown}
          onBlur={() => box.setOpen(false)}
          onClick={() => box.setOpen(true)}
        />
        <ul id={listId} role="listbox" className="incident-options" aria-label={t('incidentPicker.options')} hidden={!open}>
          {search.incidents.map((option, i) => (
            <IncidentOption key={option.id} id={`${listId}-${i}`} incident={option} active={i === box.active} onPick={() => box.pick(option)} />
          ))}
        </ul>
      </div>
      <input type="hidden" name={field.name} value={box.picked?.id ?? ''} />
      <SearchStatus id={box.statusId} text={box.text} search={search} />
      {box.picked ? <ChosenIncident id={pickedId} picked={box.picked} onClear={box.clear} /> : null}
    </div>
  );
}

/** The combobox's state: the text, whether the options show, the active option and the chosen incident. */
function useIncidentCombobox(initial: PickedIncident | null) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [picked, setPicked] = useState(initial);
  const inputRef = useRef<HTMLInputElement>(null);
  const search = useIncidentSearch(text);
  const listId = useId();
  const count = search.incidents.length;
  // The active option stays in view as the arrows move through a list taller than its box.
  useEffect(() => {
    if (active >= 0) document.getElementById(`${listId}-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active, listId]);

  const type = (value: string) => {
    setText(value);
    setOpen(true);
    setActive(-1);
  };
  const pick = (incident: IncidentSuggestion) => {
    setPicked(pickedFrom(incident));
    setText('');
    setOpen(false);
    setActive(-1);
  };
  const clear = () => {
    setPicked(null);
    setText('');
    inputRef.current?.focus();
  };
  const onKeyDown = useComboboxKeys({
    count,
    shown: open && count > 0,
    active,
    setActive,
    setOpen,
    pick: (index) => pick(search.incidents[index]!),
    restartWhenClosed: true,
    // While a search is typed, Enter never sends the form (which would save it without an incident).
    holdEnter: text.trim() !== '',
    onEscape: () => setActive(-1),
    onEscapeClosed: () => {
      setText('');
      return text !== '';
    },
  });
  return { text, open, setOpen, active, picked, inputRef, search, listId, pickedId: `${listId}-chosen`, statusId: `${listId}-status`, type, pick, clear, onKeyDown };
}

function IncidentOption({ id, incident, active, onPick }: { id: string; incident: IncidentSuggestion; active: boolean; onPick: () => void }) {
  const { t, i18n } = useTranslation();
  const facts = suggestionFacts(incident, i18n.language, t('field.caseNum'));
  return (
    // The mouse press would blur the input (closing the list) before the click: keep the focus where it is.
    <li id={id} role="option" aria-selected={active} className="incident-option" onMouseDown={(e) => e.preventDefault()} onClick={onPick}>
      <span className="incident-option-title">{incident.title}</span>
      <span className="incident-option-facts">
        {t(`category.${incident.category}.singular`)}
        {facts ? ` · ${facts}` : ''}
      </span>
    </li>
  );
}

/** Searching, no match, how many, or the search's failure: announced politely as it changes. */
function SearchStatus({ id, text, search }: { id: string; text: string; search: ReturnType<typeof useIncidentSearch> }) {
  const { t } = useTranslation();
  let message = '';
  if (search.error) message = t('incidentPicker.failed');
  else if (search.searching) message = t('incidentPicker.searching');
  else if (search.asked && search.incidents.length === 0) message = t('incidentPicker.noMatch', { text: text.trim() });
  else if (search.asked) message = t('incidentPicker.found', { count: search.incidents.length });
  return (
    <p id={id} className="incident-picker-status" role="status">
      {message}
    </p>
  );
}

/** The incident chosen (or stored): title, kind, date and place, with the button that unlinks it. */
function ChosenIncident({ id, picked, onClear }: { id: string; picked: PickedIncident; onClear: () => void }) {
  const { t, i18n } = useTranslation();
  // A stored link knows the title and date; its place comes with the incident's own record (a chosen option tells it).
  const { suggestion } = picked;
  const { data: record } = useRecord(picked.category ?? 'massacres', picked.id, !suggestion && !!picked.category);
  const caseLabel = t('field.caseNum');
  let facts = picked.happenedOn ? formatDate(picked.happenedOn, i18n.language) : '';
  if (suggestion) facts = suggestionFacts(suggestion, i18n.language, caseLabel);
  else if (record) facts = incidentFacts(record, i18n.language, caseLabel);
  const title = picked.unavailable ? t('links.incidentUnavailable') : (record?.title ?? picked.title ?? picked.id);
  return (
    <div className="incident-chosen" data-testid="incident-chosen">
      <p id={id}>
        {t('incidentPicker.chosen')} <strong>{title}</strong>
        {picked.category ? <span className="incident-option-facts"> {[t(`category.${picked.category}.singular`), facts].filter(Boolean).join(' · ')}</span> : null}
      </p>
      <button type="button" className="btn btn-secondary" onClick={onClear}>
        {t('incidentPicker.clear')}
      </button>
    </div>
  );
}
