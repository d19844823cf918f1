import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../lib/i18n';
import { Link, NavLink, useLocation } from 'react-router';
import { can, paths } from '@app/shared';
import { brand } from '../lib/brand';
import { useSession } from '../lib/session';
import { LanguageSwitch } from './LanguageSwitch';

/**
 * Brand link and menu: About, Events, Statistics, Dashboard (signed in), Sign In or Logout. Below 768px the menu
 * is a slide-in panel opened by a button.
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
        <ul>
          <li>
            <NavLink to={paths.about}>{t('nav.about')}</NavLink>
          </li>
          <li>
            <NavLink to={paths.list('events')}>{t('nav.events')}</NavLink>
          </li>
          <li>
            <NavLink to={paths.search}>{t('search.nav')}</NavLink>
          </li>
          <li>
            <NavLink to="/statistics">{t('statistics.nav')}</NavLink>
          </li>
          {user ? (
            <li>
              <NavLink to={paths.dashboard}>{t('nav.dashboard')}</NavLink>
            </li>
          ) : null}
          {user && can.readAudit(user) ? (
            <li>
              <NavLink to={paths.trash}>{t('nav.admin')}</NavLink>
            </li>
          ) : null}
          <li>
            {user ? <NavLink to={paths.logout}>{t('nav.logout')}</NavLink> : <NavLink to={paths.signin}>{t('nav.signIn')}</NavLink>}
          </li>
          <li>
            <LanguageSwitch />
          </li>
        </ul>
      </nav>
      {open ? <div className="menu-backdrop" aria-hidden="true" onClick={() => setOpen(false)} /> : null}
    </header>
  );
}
