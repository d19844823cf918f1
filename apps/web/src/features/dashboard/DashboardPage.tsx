import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { can, paths, PICKER_CATEGORIES, type CategoryDef } from '@app/shared';
import { PageTitle } from '../../components/PageTitle';
import { useSession } from '../../lib/session';
import './dashboard.css';

/**
 * /dashboard (signed in): a category picker whose first option is the placeholder, so no form shows until a
 * category is chosen; then that category's add form. The choice is in the address (?category=victims), so an add
 * form has an address of its own and the back button returns to the picker. The form belongs to the records feature
 * and is handed in by app/ (features do not import each other).
 */
export default function DashboardPage({ renderAddForm }: { renderAddForm: (category: CategoryDef) => ReactNode }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const chosen = PICKER_CATEGORIES.find((c) => c.slug === params.get('category')) ?? null;
  const choose = (slug: string) => setParams(slug ? { category: slug } : {});
  const mayImport = can.create(useSession());

  return (
    <section className="dashboard">
      <PageTitle title={t('pages.dashboard')} />
      <p className="dashboard-subtitle">{t('editor.dashboardSubtitle')}</p>
      <div className="dashboard-picker">
        <label htmlFor="dashboard-category">{t('editor.categoryPicker')}</label>
        <select
          id="dashboard-category"
          value={chosen?.slug ?? ''}
          onChange={(e) => choose(e.target.value)}
        >
          <option value="">{t('editor.selectCategory')}</option>
          {PICKER_CATEGORIES.map((c) => (
            <option key={c.slug} value={c.slug}>
              {c.pickerLabel}
            </option>
          ))}
        </select>
      </div>
      {chosen ? (
        <div key={chosen.slug}>{renderAddForm(chosen)}</div>
      ) : mayImport ? (
        <p className="dashboard-import">
          {t('editor.importHint')} <Link to={paths.imports}>{t('editor.importLink')}</Link>
        </p>
      ) : null}
    </section>
  );
}
