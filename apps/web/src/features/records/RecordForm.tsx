import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/i18n';
import { DESCRIPTION_COLS, DESCRIPTION_ROWS, REGIONS, regionName, type CategoryDef, type FieldDef, type RecordDto } from '@app/shared';
import { ApiError } from '../../lib/api';
import { toFormDateTime } from '../../lib/dates';
import { fieldAria, FormAlert, FormField } from '../../components/FormField';
import { DuplicateWarning, useDuplicateQuestion } from './DuplicateWarning';
import { choiceLabelKey } from './FieldValue';
import { errorFor, fieldProblems, recordFormData, uploadName } from './formData';
import { IncidentPicker } from './IncidentPicker';
import { SourcesEditor } from './SourcesEditor';
import './editor.css';
import { formErrors } from '../../lib/formErrors';

interface RecordFormProps {
  category: CategoryDef;
  /** Edit: the stored record, whose values prefill the inputs. */
  record?: RecordDto;
  /** Add: starting values that are no stored record (a testimony's place and its withheld source). */
  draft?: Partial<RecordDto>;
  submitLabel: string;
  /** Asked with window.confirm before sending (video create), once the fields pass the server's checks. */
  confirmText?: string;
  /** Sends the body; rejects with ApiError on failure. */
  save: (body: FormData, onProgress: (percent: number) => void) => Promise<unknown>;
  /** Called after a successful save with what the server answered (navigation lives with the page). */
  onSaved: (saved: unknown) => void;
}

/** How long a finished upload stays on screen at 100% before the page moves on. */
const UPLOAD_DONE_PAUSE_MS = 500;

/**
 * Moves focus to the first field the server refused, so keyboard and screen-reader users land on it; in a group of
 * inputs (the sources), to the input it marked.
 */
function useFocusOnFirstError(errors: Record<string, string>, category: CategoryDef, formId: string) {
  useEffect(() => {
    const first = category.fields.find((f) => errorFor(errors, f));
    const element = first ? document.getElementById(`${formId}-${first.name}`) : null;
    (element?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? element)?.focus();
  }, [errors, category, formId]);
}

/**
 * The one create/edit form of every category, generated from the registry (field kind -> input). Submitted with
 * native validation off: the server's field errors appear under their fields and the input is kept.
 */
export function RecordForm({ category, record, draft, submitLabel, confirmText, save, onSaved }: RecordFormProps) {
  const { t } = useTranslation();
  const formId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [pending, setPending] = useState(false);
  // Person categories: the likely duplicates of what is typed, shown before saving.
  const { question, askAgain } = useDuplicateQuestion(category, formRef);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending || !formRef.current) return;
    const body = recordFormData(category, formRef.current);
    if (confirmText && !confirmedWhenValid(body, confirmText)) return;
    const hasFiles = [...body.values()].some((v) => v instanceof File);
    setErrors({});
    setGeneral([]);
    setPending(true);
    setProgress(hasFiles ? 0 : null);
    try {
      const saved = await save(body, setProgress);
      if (hasFiles) {
        setProgress(100);
        await new Promise((resolve) => setTimeout(resolve, UPLOAD_DONE_PAUSE_MS));
      }
      setPending(false);
      onSaved(saved);
    } catch (err) {
      setPending(false);
      setProgress(null);
      showFailure(err);
    }
  };

  /** The question asked only about a form the server would take; a refused one shows its field errors instead. */
  const confirmedWhenValid = (body: FormData, question: string): boolean => {
    const problems = fieldProblems(category, body, { editing: Boolean(record) });
    if (!problems) return window.confirm(question);
    setErrors(problems);
    setGeneral([t('editor.confirmVideoFixFirst')]);
    return false;
  };

  const showFailure = (err: unknown) => {
    if (!(err instanceof ApiError)) {
      setGeneral([t('editor.saveFailed', { message: err instanceof Error ? err.message : String(err) })]);
      return;
    }
    const split = formErrors(err, category.fields.flatMap((f) => [f.name, uploadName(f)]));
    setErrors(split.fields as Record<string, string>);
    const matched = Object.keys(split.fields).length > 0;
    setGeneral(matched ? [t('editor.fixFields'), ...split.general] : [t('editor.saveFailed', { message: split.general[0] ?? err.message })]);
  };

  useFocusOnFirstError(errors, category, formId);

  return (
    <form ref={formRef} className="record-form" noValidate onSubmit={onSubmit} onInput={askAgain} encType="multipart/form-data" aria-busy={pending}>
      <FormAlert messages={general} />
      {category.fields.map((field) => (
        <RegistryField key={field.name} field={field} idPrefix={formId} record={record ?? (draft as RecordDto | undefined)} error={errorFor(errors, field)} />
      ))}
      {category.checksDuplicates && question ? <DuplicateWarning category={category} question={question} recordId={record?._id} /> : null}
      {progress !== null ? (
        <div className="upload-progress">
          <label htmlFor={`${formId}-progress`}>{t('editor.uploadProgress')}</label>
          <progress id={`${formId}-progress`} max={100} value={progress} />
          <span data-testid="upload-percent">{progress}%</span>
        </div>
      ) : null}
      <div>
        <button type="submit" className="btn" disabled={pending}>
          {pending ? t('editor.saving') : submitLabel}
        </button>
      </div>
    </form>
  );
}

function RegistryField({ field, idPrefix, record, error }: { field: FieldDef; idPrefix: string; record?: RecordDto; error?: string }) {
  const { t } = useTranslation();
  // A group of inputs with its own legend, hint and errors, not one labelled input.
  if (field.kind === 'sources') return <SourcesEditor field={field} idPrefix={idPrefix} record={record} error={error} />;
  const id = `${idPrefix}-${field.name}`;
  const hint = field.hint ? t(field.hint) : undefined;
  const common = fieldAria(id, { hint, error });
  const stored = record?.[field.name];
  const text = typeof stored === 'string' || typeof stored === 'number' ? String(stored) : '';

  let input;
  switch (field.kind) {
    case 'markdown':
      input = <textarea {...common} name={field.name} rows={DESCRIPTION_ROWS} cols={DESCRIPTION_COLS} defaultValue={text} />;
      break;
    case 'datetime':
    case 'date':
      input = <input {...common} type="datetime-local" step={1} name={field.name} defaultValue={toFormDateTime(typeof stored === 'string' ? stored : null)} />;
      break;
    case 'quantity':
      input = <input {...common} type="number" inputMode="numeric" name={field.name} defaultValue={text} />;
      break;
    case 'url':
      input = <input {...common} type="url" name={field.name} defaultValue={text} />;
      break;
    case 'region':
      input = <RegionSelect common={common} name={field.name} defaultValue={text} />;
      break;
    case 'choice':
      input = <ChoiceSelect common={common} field={field} defaultValue={text} />;
      break;
    case 'incident':
      input = <IncidentPicker field={field} common={common} record={record} />;
      break;
    case 'image':
    case 'images':
    case 'video':
      input = <FileInput field={field} common={common} record={record} />;
      break;
    default:
      input = <input {...common} type="text" name={field.name} defaultValue={text} />;
  }

  return (
    <FormField id={id} label={t(field.label)} hint={hint} error={error}>
      {input}
    </FormField>
  );
}

/** The controlled list of regions; "not recorded" sends an empty value (no region). */
function RegionSelect({ common, name, defaultValue }: { common: Record<string, unknown>; name: string; defaultValue: string }) {
  const { t, i18n } = useTranslation();
  return (
    <select {...common} name={name} defaultValue={defaultValue}>
      <option value="">{t('region.none')}</option>
      {REGIONS.map((region) => (
        <option key={region.code} value={region.code}>
          {regionName(region.code, i18n.language)}
        </option>
      ))}
    </select>
  );
}

/** A choice field's options by their labels (the stored word is the value); "not recorded" sends an empty value. */
function ChoiceSelect({ common, field, defaultValue }: { common: Record<string, unknown>; field: FieldDef; defaultValue: string }) {
  const { t } = useTranslation();
  return (
    <select {...common} name={field.name} defaultValue={defaultValue}>
      <option value="">{t('region.none')}</option>
      {(field.options ?? []).map((option) => (
        <option key={option} value={option}>
          {t(choiceLabelKey(field, option))}
        </option>
      ))}
    </select>
  );
}

interface Preview {
  url: string;
  name: string;
  isVideo: boolean;
}

/** File input with previews of the chosen files (and of the stored ones when editing). */
function FileInput({ field, common, record }: { field: FieldDef; common: Record<string, unknown>; record?: RecordDto }) {
  const { t } = useTranslation();
  const [previews, setPreviews] = useState<Preview[]>([]);
  useEffect(() => () => previews.forEach((p) => URL.revokeObjectURL(p.url)), [previews]);
  const isVideo = field.kind === 'video';
  const stored = (record?.images ?? []).filter((m) => (isVideo ? m.kind === 'video' : m.kind === 'image') && m.imageUrl);

  return (
    <>
      <input
        {...common}
        type="file"
        name={uploadName(field)}
        multiple={field.kind === 'images'}
        accept={isVideo ? 'video/*' : 'image/*'}
        onChange={(e) =>
          setPreviews(
            [...(e.currentTarget.files ?? [])].map((file) => ({
              url: URL.createObjectURL(file),
              name: file.name,
              isVideo: file.type.startsWith('video/'),
            })),
          )
        }
      />
      {previews.length > 0 ? (
        <ul className="file-previews" aria-label={t('editor.selectedFiles')}>
          {previews.map((p) => (
            <li key={p.url}>{p.isVideo ? <video src={p.url} muted aria-label={p.name} /> : <img src={p.url} alt={p.name} />}</li>
          ))}
        </ul>
      ) : stored.length > 0 ? (
        <ul className="file-previews" aria-label={t(isVideo ? 'editor.currentVideo' : 'editor.currentImages')}>
          {stored.map((m) => (
            <li key={m.imageId}>
              {isVideo ? <video src={m.imageUrl} muted aria-label={m.caption ?? ''} /> : <img src={m.imageUrl} alt={m.caption ?? ''} />}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
