import { useTranslation } from '../../lib/i18n';
import { PageTitle } from '../../components/PageTitle';

/** A signed-in user without the role sees this instead of an empty screen (the server refuses the calls anyway). */
export function ForbiddenNotice({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <section>
      <PageTitle title={title} />
      <p className="error-notice" role="alert">
        {t('admin.forbidden')}
      </p>
    </section>
  );
}
