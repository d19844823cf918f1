import { useTranslation } from '../../lib/i18n';
import { Markdown } from '../../components/Markdown';
import { PageTitle } from '../../components/PageTitle';
import aboutAm from '../../content/about.am.md?raw';
import aboutEn from '../../content/about.en.md?raw';

/** The about text is content a deployer edits (src/content/about.{lang}.md), not code (see docs/content.md). */
const CONTENT: Record<string, string> = { en: aboutEn, am: aboutAm };

export default function AboutPage() {
  const { t, i18n } = useTranslation();
  return (
    <article className="about">
      <PageTitle title={t('pages.about')} />
      <Markdown>{CONTENT[i18n.language] ?? aboutEn}</Markdown>
    </article>
  );
}
