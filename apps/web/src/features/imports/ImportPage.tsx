import { useState, type FormEvent } from 'react';
import { CATEGORY_LIST, can, getCategory, type ImportCheck, type ImportMapping } from '@app/shared';
import { PageTitle } from '../../components/PageTitle';
import { useTranslation } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { checkImport, commitImport, useSavedMappings, type SavedMapping } from './api';
import { CheckResult, type Choice } from './CheckResult';
import { ProgressPanel } from './ProgressPanel';
import './imports.css';


/**
 * /admin/imports: a spreadsheet or form export brought in as records of one category. The file is checked first
 * (nothing written), its mapping corrected and checked again, then written by a background job whose progress shows.
 */
export default function ImportPage() {
  const { t } = useTranslation();
  const user = useSession();
  const [slug, setSlug] = useState('victims');
  const [file, setFile] = useState<File | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [check, setCheck] = useState<ImportCheck | null>(null);
  const [mapping, setMapping] = useState<ImportMapping | null>(null);
  const [error, setError] = useState<Record<string, string> | null>(null);
  const [committed, setCommitted] = useState<string | null>(null);
  const saved = useSavedMappings(slug);
  const category = getCategory(slug)!;
  const title = t('pages.imports');

  if (!can.create(user)) return <p role="alert">{t('imports.signIn')}</p>;

  const run = async (withMapping: ImportMapping | undefined) => {
    if (!file) return setError({ file: t('imports.chooseFile') });
    setError(null);
    setCommitted(null);
    setPercent(0);
    try {
      const result = await checkImport(file, slug, withMapping, setPercent);
      setCheck(result);
      setMapping(result.mapping);
    } catch (err) {
      const body = (err as { body?: Record<string, string> }).body;
      setError(body && typeof body === 'object' ? body : { message: (err as Error).message });
    } finally {
      setPercent(null);
    }
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const chosen = saved.data?.find((m) => m.id === (e.currentTarget as HTMLFormElement).savedMapping?.value);
    void run(chosen?.mapping);
  };
  const commit = async (choice: Choice) => {
    if (!check) return;
    try {
      await commitImport(check.id, choice);
      setCommitted(check.id);
    } catch (err) {
      setError({ message: (err as Error).message });
    }
  };

  return (
    <section className="import-page">
      <PageTitle title={title} />
      <p>{t('imports.intro')}</p>
      <form onSubmit={onSubmit} className="import-upload" noValidate>
        <label htmlFor="import-category">{t('imports.category')}</label>
        <select id="import-category" value={slug} onChange={(e) => { setSlug(e.target.value); setCheck(null); }}>
          {CATEGORY_LIST.map((c) => (
            <option key={c.slug} value={c.slug}>{t(c.singular)}</option>
          ))}
        </select>
        <label htmlFor="import-file">{t('imports.file')}</label>
        <input id="import-file" name="file" type="file" accept=".csv,.txt,.tsv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" aria-describedby="import-file-hint" aria-invalid={Boolean(error?.file)} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        <small id="import-file-hint">{t('imports.fileHint')}</small>
        <SavedMappingSelect saved={saved.data ?? []} />
        <button type="submit" className="btn" disabled={percent !== null}>{t('imports.check')}</button>
        {percent !== null && <progress max={100} value={percent} aria-label={t('imports.uploading')} />}
      </form>
      {error && <Problems error={error} />}
      {check && mapping && !committed && (
        <CheckResult check={check} category={category} mapping={mapping} onMapping={setMapping} onCheckAgain={() => void run(mapping)} onCommit={(choice) => void commit(choice)} onSaved={() => void saved.refetch()} />
      )}
      {committed && <ProgressPanel importId={committed} category={category} />}
    </section>
  );
}

/** The owner's saved mappings of the category, to read the file with instead of its headers. */
function SavedMappingSelect({ saved }: { saved: SavedMapping[] }) {
  const { t } = useTranslation();
  if (!saved.length) return null;
  return (
    <>
      <label htmlFor="import-saved">{t('imports.savedMapping')}</label>
      <select id="import-saved" name="savedMapping" defaultValue="">
        <option value="">{t('imports.fromHeaders')}</option>
        {saved.map((m) => <option key={m.id} value={m.id}>{m.name}</option>)}
      </select>
    </>
  );
}

function Problems({ error }: { error: Record<string, string> }) {
  return (
    <div role="alert" className="import-error">
      {Object.entries(error).map(([field, message]) => <p key={field}>{message}</p>)}
    </div>
  );
}
