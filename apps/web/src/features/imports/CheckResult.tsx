import { useState } from 'react';
import type { CategoryDef, ImportCheck, ImportMapping } from '@app/shared';
import { useTranslation } from '../../lib/i18n';
import { saveMapping } from './api';
import { MappingTable } from './MappingTable';
import { ProblemsTable } from './ProblemsTable';

export type Choice = 'skip' | 'create' | 'link';

/** What the check found: the counts, the mapping to correct (and save), the problems, and the commit with its choice. */
export function CheckResult({
  check,
  category,
  mapping,
  onMapping,
  onCheckAgain,
  onCommit,
  onSaved,
}: {
  check: ImportCheck;
  category: CategoryDef;
  mapping: ImportMapping;
  onMapping: (next: ImportMapping) => void;
  onCheckAgain: () => void;
  onCommit: (choice: Choice) => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<Choice>('skip');
  const [mappingName, setMappingName] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const save = () =>
    saveMapping(category.slug, mappingName, mapping).then(
      () => {
        setNote(t('imports.mappingSaved'));
        onSaved();
      },
      (err: Error) => setNote(err.message),
    );
  return (
    <>
      <p data-testid="import-summary" aria-live="polite">
        {t('imports.summary', { rows: check.rows, valid: check.valid, errors: check.errorCount, duplicates: check.duplicateCount })}
        {check.alreadyImported > 0 && ` ${t('imports.alreadyImported', { count: check.alreadyImported })}`}
      </p>
      <MappingTable category={category} columns={check.columns} mapping={mapping} onChange={onMapping} />
      <p className="import-actions">
        <button type="button" className="btn btn-secondary" onClick={onCheckAgain}>{t('imports.checkAgain')}</button>
        <label htmlFor="import-mapping-name">{t('imports.mappingName')}</label>
        <input id="import-mapping-name" value={mappingName} onChange={(e) => setMappingName(e.target.value)} />
        <button type="button" className="btn btn-secondary" disabled={!mappingName.trim()} onClick={() => void save()}>
          {t('imports.saveMapping')}
        </button>
      </p>
      {note && <p role="status">{note}</p>}
      <h2>{t('imports.problems')}</h2>
      <ProblemsTable key={check.id} importId={check.id} category={category} />
      <fieldset className="import-choice">
        <legend>{t('imports.duplicatesChoice')}</legend>
        {(['skip', 'link', 'create'] as const).map((c) => (
          <label key={c}>
            <input type="radio" name="duplicates" value={c} checked={choice === c} onChange={() => setChoice(c)} /> {t(`imports.choice.${c}`)}
          </label>
        ))}
      </fieldset>
      <button type="button" className="btn" disabled={check.valid === 0} onClick={() => onCommit(choice)}>{t('imports.commit', { count: check.valid })}</button>
    </>
  );
}
