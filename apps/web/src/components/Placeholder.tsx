import { useTranslation } from '../lib/i18n';
import { PageTitle } from './PageTitle';

/** A route whose screen is not built yet: the frame and title are real. */
export function Placeholder({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <section>
      <PageTitle title={title} />
      <p>{t('common.comingSoon')}</p>
    </section>
  );
}
