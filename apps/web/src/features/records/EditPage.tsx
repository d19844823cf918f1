import { useEffect, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link, useNavigate, useParams } from 'react-router';
import { can, paths } from '@app/shared';
import { PageTitle } from '../../components/PageTitle';
import { ErrorNotice, Loading } from '../../components/Status';
import { useSession } from '../../lib/session';
import { useRecord } from './api';
import { useEditRecord } from './mutations';
import { RecordForm } from './RecordForm';
import { useCategoryFromPath } from './useCategoryFromPath';

/**
 * /{route}/edit/{id} of every category: the registry form prefilled from GET /{category}/{id}, ending with Update.
 * After saving it goes to the detail page (the event page for events, /educations/{id} for blogs); a video edit
 * goes there after the registry's delay.
 */
export default function EditPage() {
  const { t } = useTranslation();
  const category = useCategoryFromPath();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const user = useSession();
  const { data: record, error, isPending, refetch } = useRecord(category.slug, id);
  const edit = useEditRecord(category, id);
  const [notice, setNotice] = useState<string | null>(null);
  const [redirectAt, setRedirectAt] = useState<number | null>(null);

  useEffect(() => {
    if (redirectAt === null) return;
    const timer = setTimeout(() => void navigate(paths.detail(category.slug, id)), category.redirectDelayMs ?? 0);
    return () => clearTimeout(timer);
  }, [redirectAt, navigate, category, id]);

  const title = t('editor.editTitle', { category: t(category.singular) });
  if (isPending) return <Loading />;
  if (error) return <ErrorNotice error={error} onRetry={() => void refetch()} />;
  // The server refuses the save anyway; saying so before any typing spares the editor their work.
  if (!can.modify(user, record)) {
    return (
      <section>
        <PageTitle title={title} />
        <p className="error-notice" role="alert" data-testid="edit-refused">
          {t('editor.notYours')}
        </p>
        <p>
          <Link to={paths.detail(category.slug, record._id)}>{t('editor.backToRecord', { title: record.title })}</Link>
        </p>
      </section>
    );
  }

  const onSaved = () => {
    if (category.redirectDelayMs) {
      setNotice(t('editor.videoRedirect'));
      setRedirectAt(Date.now());
    } else {
      void navigate(paths.detail(category.slug, id));
    }
  };

  return (
    <section>
      <PageTitle title={title} />
      {notice ? (
        <p className="action-ok" role="status">
          {notice}
        </p>
      ) : null}
      <RecordForm
        key={record._id}
        category={category}
        record={record}
        submitLabel={t('common.update')}
        save={(form, onProgress) => edit.mutateAsync({ form, onProgress })}
        onSaved={onSaved}
      />
    </section>
  );
}
