import { useEffect, useRef, useState, type ReactNode } from 'react';
import { can, SOURCE_KINDS, type FieldDef, type RecordDto, type Source } from '@app/shared';
import { FieldNotes, fieldAria, FormField } from '../../components/FormField';
import { useTranslation } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { emptyDraft, placeSourceError, serialiseSources, toDraft, type PlacedSourceError, type SourceDraft, type SourceTextField } from './sourceDrafts';
import './sources-editor.css';

/**
 * The `sources` field of the add and edit forms: a numbered list of sources, each a fieldset of labelled inputs, with
 * buttons to add and remove one. The list goes to the server as the JSON text it has always taken, in a hidden input of
 * the field's name; an edit starts from the stored sources (withheld testimony included: only its editors open this).
 */
interface SourcesEditorProps {
  field: FieldDef;
  idPrefix: string;
  record?: RecordDto;
  /** The server's error for the field ("Source 2 (url): ..."): shown beside the input it names. */
  error?: string;
}

export function SourcesEditor({ field, idPrefix, record, error }: SourcesEditorProps) {
  const { t } = useTranslation();
  const id = `${idPrefix}-${field.name}`;
  const editor = useSourceDrafts(record?.[field.name], id);
  const placed = usePlacedError(error, editor.drafts);
  const hint = field.hint ? t(field.hint) : undefined;
  const listError = placed && placed.key === undefined ? placed.message : undefined;
  return (
    // The group takes the focus when the server refuses the list as a whole (RecordForm focuses the first refused field).
    <fieldset id={id} tabIndex={-1} className="sources-editor" aria-describedby={fieldAria(id, { hint, error: listError })['aria-describedby']}>
      <legend>{t(field.label)}</legend>
      <FieldNotes id={id} hint={hint} error={listError} />
      {editor.drafts.length ? (
        <ol className="sources-editor-list">
          {editor.drafts.map((draft, i) => (
            <li key={draft.key}>
              <SourceFieldset draft={draft} number={i + 1} idBase={`${id}-${draft.key}`} error={placed?.key === draft.key ? placed : null} onChange={editor.change} onRemove={() => editor.remove(i)} />
            </li>
          ))}
        </ol>
      ) : (
        <p className="sources-editor-none">{t('sourceEditor.none')}</p>
      )}
      <div>
        <button type="button" id={`${id}-add`} className="btn btn-secondary" onClick={editor.add}>
          {t('sourceEditor.add')}
        </button>
      </div>
      <p className="visually-hidden" role="status">
        {editor.announcement}
      </p>
      <input type="hidden" name={field.name} value={serialiseSources(editor.drafts)} />
    </fieldset>
  );
}

/** The drafts, adding and removing them with the focus moved and the change announced, and editing one. */
function useSourceDrafts(stored: unknown, id: string) {
  const { t } = useTranslation();
  const [drafts, setDrafts] = useState<SourceDraft[]>(() => (Array.isArray(stored) ? (stored as Source[]) : []).map(toDraft));
  const [nextKey, setNextKey] = useState(drafts.length);
  const [announcement, setAnnouncement] = useState('');
  // The element to focus once the list has changed: a new source's first input, or what follows a removed one.
  const focusTarget = useRef<string | null>(null);
  useEffect(() => {
    if (!focusTarget.current) return;
    document.getElementById(focusTarget.current)?.focus();
    focusTarget.current = null;
  }, [drafts]);

  const add = () => {
    focusTarget.current = `${id}-${nextKey}-kind`;
    setDrafts([...drafts, emptyDraft(nextKey)]);
    setNextKey(nextKey + 1);
    setAnnouncement(t('sourceEditor.added', { n: drafts.length + 1 }));
  };
  const remove = (index: number) => {
    const following = drafts[index + 1];
    focusTarget.current = following ? `${id}-${following.key}-kind` : `${id}-add`;
    setDrafts(drafts.filter((_, i) => i !== index));
    setAnnouncement(t('sourceEditor.removed', { n: index + 1 }));
  };
  const change = (key: number, patch: Partial<SourceDraft>) => setDrafts((all) => all.map((d) => (d.key === key ? { ...d, ...patch } : d)));
  return { drafts, announcement, add, remove, change };
}

/** The server's error placed on the drafts it was about, kept on them (by key) while others are added or removed. */
function usePlacedError(error: string | undefined, drafts: readonly SourceDraft[]): PlacedSourceError | null {
  const [seen, setSeen] = useState<string | undefined>(undefined);
  const [placed, setPlaced] = useState<PlacedSourceError | null>(null);
  if (error !== seen) {
    setSeen(error);
    setPlaced(placeSourceError(error, drafts));
  }
  return placed;
}

interface SourceFieldsetProps {
  draft: SourceDraft;
  number: number;
  idBase: string;
  error: PlacedSourceError | null;
  onChange: (key: number, patch: Partial<SourceDraft>) => void;
  onRemove: () => void;
}

/** One source's inputs; an error that names no input (the source as a whole) shows at its kind. */
function SourceFieldset({ draft, number, idBase, error, onChange, onRemove }: SourceFieldsetProps) {
  const { t } = useTranslation();
  const errorAt = (name: string) => (error && (error.field ?? 'kind') === name ? error.message : undefined);
  const text = (name: SourceTextField, props: { type?: string; inputMode?: 'url'; hint?: string; wide?: boolean } = {}) => (
    <SourceInput id={`${idBase}-${name}`} label={t(`sourceEditor.${name}`)} hint={props.hint} error={errorAt(name)} wide={props.wide}>
      {(common) =>
        name === 'note' ? (
          <textarea {...common} rows={3} value={draft.note} onChange={(e) => onChange(draft.key, { note: e.currentTarget.value })} />
        ) : (
          <input {...common} type={props.type ?? 'text'} inputMode={props.inputMode} value={draft[name]} onChange={(e) => onChange(draft.key, { [name]: e.currentTarget.value })} />
        )
      }
    </SourceInput>
  );
  const withheldError = draft.kind === 'witness' ? errorAt('withheld') : undefined;
  return (
    <fieldset className="source-fieldset">
      <legend>{t('sourceEditor.source', { n: number })}</legend>
      <SourceInput id={`${idBase}-kind`} label={t('sourceEditor.kind')} error={errorAt('kind') ?? (draft.kind === 'witness' ? undefined : errorAt('withheld'))}>
        {(common) => (
          // Not controlled (nor is the withheld box): the form re-renders on their input event (the duplicates question),
          // which for a controlled one would put back the old value before its change event arrives.
          <select {...common} defaultValue={draft.kind} onChange={(e) => onChange(draft.key, { kind: e.currentTarget.value as SourceDraft['kind'] })}>
            {SOURCE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {t(`sources.kind.${kind}`)}
              </option>
            ))}
          </select>
        )}
      </SourceInput>
      {text('title')}
      {text('publisher')}
      {text('date', { hint: t('sourceEditor.dateHint') })}
      {text('url', { type: 'url', inputMode: 'url' })}
      {text('language', { hint: t('sourceEditor.languageHint') })}
      {text('note', { wide: true })}
      {draft.kind === 'witness' ? (
        <WithheldBox id={`${idBase}-withheld`} checked={draft.withheld} locked={draft.storedWithheld === true} error={withheldError} onChange={(withheld) => onChange(draft.key, { withheld })} />
      ) : null}
      <div className="source-wide">
        <button type="button" className="btn btn-secondary" onClick={onRemove}>
          {t('sourceEditor.remove', { n: number })}
        </button>
      </div>
    </fieldset>
  );
}

/** A labelled input of a source with its hint and error (FormField), its aria attributes handed to the child. */
function SourceInput({ id, label, hint, error, wide, children }: { id: string; label: string; hint?: string; error?: string; wide?: boolean; children: (common: ReturnType<typeof fieldAria>) => ReactNode }) {
  return (
    <div className={wide ? 'source-wide' : undefined}>
      <FormField id={id} label={label} hint={hint} error={error}>
        {children(fieldAria(id, { hint, error }))}
      </FormField>
    </div>
  );
}

/**
 * Withholding a witness's testimony from the public: its details go to its author and the staff only. A testimony
 * stored withheld is made public by staff only (the server refuses anyone else), so its box is locked for others.
 */
function WithheldBox({ id, checked, locked, error, onChange }: { id: string; checked: boolean; locked: boolean; error?: string; onChange: (checked: boolean) => void }) {
  const { t } = useTranslation();
  const user = useSession();
  const disabled = locked && !can.liftWithheld(user);
  const hint = disabled ? t('sourceEditor.withheldLocked') : undefined;
  return (
    <div className="source-wide source-withheld">
      <input {...fieldAria(id, { error, hint })} type="checkbox" defaultChecked={checked} disabled={disabled} onChange={(e) => onChange(e.currentTarget.checked)} />
      <label htmlFor={id}>{t('sourceEditor.withheld')}</label>
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
