import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../lib/i18n';
import { Link, NavLink, useLocation } from 'react-router';
import { can, paths } from '@app/shared';
import { brand } from '../lib/brand';
import { useSession } from '../lib/session';
import { LanguageSwitch } from './LanguageSwitch';
import { SITE_LISTS, SITE_TOOLS, type SiteLink } from './siteLists';

function LinkList({ links, label }: { links: readonly SiteLink[]; label: string }) {
  const { t } = useTranslation();
  return (
    <ul className="browse-links" aria-label={label}>
      {links.map((link) => (
        <li key={link.key}>
          <NavLink to={link.to}>{t(`browse.${link.key}`)}</NavLink>
        </li>
      ))}
    </ul>
  );
}

/**
 * "Browse": every list and the ways to read across them. From 768px a button opens it under the header; in the phone
 * menu it is open, so every list is two taps from any page (the menu, then the list).
 */
function BrowseMenu() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const rootRef = useRef<HTMLLIElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  return (
    <li className="browse" ref={rootRef}>
      <button ref={buttonRef} type="button" className="browse-toggle" aria-expanded={open} aria-controls="browse-panel" onClick={() => setOpen((v) => !v)}>
        {t('nav.browse')} <span aria-hidden="true">▾</span>
      </button>
      <div id="browse-panel" className={`browse-panel${open ? ' is-open' : ''}`}>
        <p className="browse-heading" aria-hidden="true">
          {t('nav.browse')}
        </p>
        <LinkList links={SITE_LISTS} label={t('nav.listsLabel')} />
        <LinkList links={SITE_TOOLS} label={t('nav.toolsLabel')} />
      </div>
    </li>
  );
}

/**
 * Brand link and menu: About, Events, Browse (every list), Search, Statistics, Dashboard (signed in), Admin (staff),
 * Sign In or Logout, the language, and the site's contact address and social link. Below 768px the menu is a slide-in
 * panel opened by a button.
 */
export function Header() {
  const { t } = useTranslation();
  const user = useSession();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);

  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    panelRef.current?.querySelector<HTMLElement>('a, button')?.focus();
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  /** A language chosen in the phone menu closes it: the page is what the visitor wants to see in that language. */
  const onLanguageChanged = () => {
    if (!open) return;
    setOpen(false);
    toggleRef.current?.focus();
  };

  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        {t('nav.skipToContent')}
      </a>
      <Link to={paths.home} className="brand">
        {brand.siteName}
      </Link>
      <button
        ref={toggleRef}
        type="button"
        className="menu-toggle"
        aria-expanded={open}
        aria-controls="site-menu"
        onClick={() => setOpen((v) => !v)}
      >
        <span aria-hidden="true">{open ? '✕' : '☰'}</span>
        <span className="visually-hidden">{open ? t('nav.closeMenu') : t('nav.menu')}</span>
      </button>
      <nav id="site-menu" ref={panelRef} className={`site-menu${open ? ' is-open' : ''}`} aria-label={t('nav.menu')}>
        <ul className="site-menu-items">
          <li>
            <NavLink to={paths.about}>{t('nav.about')}</NavLink>
          </li>
          <li>
            <NavLink to={paths.list('events')}>{t('nav.events')}</NavLink>
          </li>
          <BrowseMenu />
          {/* In the phone menu these are in the open Browse list already. */}
          <li className="wide-only">
            <NavLink to={paths.search}>{t('search.nav')}</NavLink>
          </li>
          <li className="wide-only">
            <NavLink to={paths.statistics}>{t('statistics.nav')}</NavLink>
          </li>
          {user ? (
            <li>
              <NavLink to={paths.dashboard}>{t('nav.dashboard')}</NavLink>
            </li>
          ) : null}
          {user && can.readAudit(user) ? (
            <li>
              <NavLink to={paths.admin}>{t('nav.admin')}</NavLink>
            </li>
          ) : null}
          <li>
            {user ? <NavLink to={paths.logout}>{t('nav.logout')}</NavLink> : <NavLink to={paths.signin}>{t('nav.signIn')}</NavLink>}
          </li>
          <li>
            <LanguageSwitch onChanged={onLanguageChanged} />
          </li>
        </ul>
        <p className="header-contact">
          <a href={`mailto:${brand.contactEmail}`} data-testid="header-contact">
            <span aria-hidden="true">✉ </span>
            {brand.contactEmail}
          </a>
          <a href={brand.socialUrl} rel="noopener noreferrer" target="_blank" data-testid="header-social">
            {t('footer.social')}
          </a>
        </p>
      </nav>
      {open ? <div className="menu-backdrop" aria-hidden="true" onClick={() => setOpen(false)} /> : null}
    </header>
  );
}
