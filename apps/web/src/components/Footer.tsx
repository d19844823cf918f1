import { useTranslation } from '../lib/i18n';
import { paths } from '@app/shared';
import { brand } from '../lib/brand';

/** Contact e-mail, copyright with the current year, back-to-top arrow, social link. */
export function Footer() {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <p>
        {t('footer.contact')}: <a href={`mailto:${brand.contactEmail}`}>{brand.contactEmail}</a>
      </p>
      <p>
        {/* A page of the server's own (no app bundle), so a full page load. */}
        <a href={paths.testify}>{t('footer.testify')}</a>
      </p>
      <p data-testid="copyright">{t('footer.copyright', { year, siteName: brand.siteName })}</p>
      <p>
        <a href={brand.socialUrl} rel="noopener noreferrer" target="_blank">
          {t('footer.social')}
        </a>
      </p>
      <button type="button" className="back-to-top" onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}>
        <span aria-hidden="true">↑</span>
        <span className="visually-hidden">{t('footer.backToTop')}</span>
      </button>
    </footer>
  );
}
