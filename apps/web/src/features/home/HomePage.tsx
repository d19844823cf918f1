import { useState } from 'react';
import { useTranslation } from '../../lib/translate';
import { Link } from 'react-router';
import { paths } from '@app/shared';
import { PageTitle } from '../../components/PageTitle';
import { SITE_LISTS, SITE_TOOLS } from '../../components/siteLists';
import { Island } from '../../islands/Island';
import { brand } from '../../lib/brand';
import { CampaignSlot } from './CampaignSlot';
import './home.css';

/** The five category tiles of the home page, in their fixed order. */
const TILES = [
  { key: 'atrocities', to: paths.list('massacres'), icon: '✝' },
  { key: 'displacement', to: paths.list('displacements'), icon: '⌂' },
  { key: 'images', to: paths.images, icon: '▣' },
  { key: 'videos', to: paths.list('videos'), icon: '▶' },
  { key: 'media', to: paths.list('links'), icon: '✉' },
] as const;

/** The lists and tools the tiles do not open, listed below them, so every list is one tap from the home page. */
const TILE_TARGETS = new Set<string>(TILES.map((tile) => tile.to));
const MORE_LINKS = [...SITE_LISTS, ...SITE_TOOLS].filter((link) => !TILE_TARGETS.has(link.to));

/** The purpose statement shows in one of three accent colours, chosen at random per visit. */
const ACCENTS = ['accent-red', 'accent-green', 'accent-gold'] as const;
type Accent = (typeof ACCENTS)[number];
const drawAccent = (): Accent => ACCENTS[Math.floor(Math.random() * ACCENTS.length)]!;

/**
 * The accent of this visit. The server draws one each time it renders the page (a cached page keeps it until it is
 * rendered again); the browser keeps the one on the page it was given, read when this code loads, before the app draws
 * over the page (the colour used to flash to another after the app started), and draws one only for a visit that did
 * not start on a page the server rendered.
 */
function accentOnPage(): Accent | null {
  const found = document.querySelector<HTMLElement>('[data-testid="purpose"]')?.dataset.accent ?? '';
  return (ACCENTS as readonly string[]).includes(found) ? (found as Accent) : null;
}
const visitAccent = typeof document === 'undefined' ? null : (accentOnPage() ?? drawAccent());
const accentOfVisit = (): Accent => visitAccent ?? drawAccent();

/** Home: no list is fetched here, so it renders with the app's code alone. */
export default function HomePage() {
  const { t } = useTranslation();
  const [accent] = useState(accentOfVisit);
  return (
    <div className="home">
      <PageTitle title={t('pages.home')} className="visually-hidden" />
      {/* A plain GET form: it opens the server-rendered search page and adds no script to the home page. */}
      <form role="search" method="get" action={paths.search} className="home-search">
        <label htmlFor="home-search-q">{t('search.homeLabel')}</label>
        <input id="home-search-q" type="search" name="q" maxLength={200} />
        <button type="submit" className="btn">
          {t('search.submit')}
        </button>
      </form>
      <nav className="home-tiles" aria-label={t('home.tilesLabel')}>
        <ul>
          {TILES.map((tile) => (
            <li key={tile.key}>
              <Link to={tile.to} className="home-tile" data-testid={`tile-${tile.key}`}>
                <span className="home-tile-icon" aria-hidden="true">
                  {tile.icon}
                </span>
                <span>{t(`home.tiles.${tile.key}`)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <nav className="home-more" aria-labelledby="home-more-title">
        <h2 id="home-more-title">{t('home.moreLists')}</h2>
        <ul>
          {MORE_LINKS.map((link) => (
            <li key={link.key}>
              <Link to={link.to}>{t(`browse.${link.key}`)}</Link>
            </li>
          ))}
        </ul>
      </nav>

      <section className="home-disclaimer" aria-labelledby="home-disclaimer-title">
        <h2 id="home-disclaimer-title">{t('home.disclaimerTitle')}</h2>
        <p>{t('home.disclaimer')}</p>
      </section>

      <TestifySection />

      <section className={`home-purpose ${accent}`} aria-labelledby="home-purpose-title" data-testid="purpose" data-accent={accent}>
        <h2 id="home-purpose-title">{t('home.purposeTitle')}</h2>
        <p lang="am">{t('home.purposeAm')}</p>
        <p lang="en">{t('home.purposeEn')}</p>
      </section>

      <Island name="campaign" component={CampaignSlot} props={{}} />

      {brand.relatedSites.length > 0 || brand.merchandiseUrl ? (
        <section className="home-related" aria-labelledby="home-related-title">
          <h2 id="home-related-title">{t('home.relatedSites')}</h2>
          <ul>
            {brand.relatedSites.map((site) => (
              <li key={site.url}>
                <a href={site.url} target="_blank" rel="noopener noreferrer">
                  {site.label}
                </a>
              </li>
            ))}
            {brand.merchandiseUrl ? (
              <li>
                <a href={brand.merchandiseUrl} target="_blank" rel="noopener noreferrer" data-testid="merchandise-link">
                  {t('home.merchandise')}
                </a>
              </li>
            ) : null}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/** The way to the witness's form (a page of the server's own, so a full page load). */
function TestifySection() {
  const { t } = useTranslation();
  return (
    <section className="home-testify" aria-labelledby="home-testify-title">
      <h2 id="home-testify-title">{t('home.testifyTitle')}</h2>
      <p>
        {t('home.testifyText')} <a href={paths.testify}>{t('home.testifyLink')}</a>
      </p>
    </section>
  );
}
