import { changeLanguage, LANGUAGES, useTranslation, type Language } from '../lib/translate';

/** Switches the interface language; the choice is remembered (lib/i18n). `onChanged` runs once the page shows it. */
export function LanguageSwitch({ onChanged }: { onChanged?: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <label className="language-switch">
      <span className="visually-hidden">{t('nav.language')}</span>
      <select
        value={i18n.language}
        onChange={(e) => void changeLanguage(e.target.value as Language).then(() => onChanged?.())}
        aria-label={t('nav.language')}
      >
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.label}
          </option>
        ))}
      </select>
    </label>
  );
}
