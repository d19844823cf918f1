import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { paths } from '@app/shared';
import { useTranslation } from '../lib/translate';
import { LanguageSwitch } from './LanguageSwitch';
import { SITE_LISTS, SITE_TOOLS, type SiteLink } from './siteLists';

/** What the menu shows of the reader: their links (dashboard, admin, sign out) instead of "Sign in". */
export interface MenuReader {
  signedIn: boolean;
  staff: boolean;
}

export interface SiteMenuProps {
  /** The address shown (its link is marked as the current page). */
  current: string;
  reader: MenuReader;
  contactEmail: string;
  socialUrl: string;
}

/** A menu link: plain, so it works on a reading page without the app (the app routes it inside, see main.tsx). */
function MenuLink({ to, current, children }: { to: string; current: string; children: string }) {
  const here = current === to || (to !== paths.home && current.startsWith(`${to}/`));
  return (
    <a href={to} className={here ? 'active' : undefined} aria-current={here ? 'page' : undefined}>
      {children}
    </a>
  );
}

function LinkList({ links, label, current }: { links: readonly SiteLink[]; label: string; current: string }) {
  const { t } = useTranslation();
  return (
    <ul className="browse-links" aria-label={label}>
      {links.map((link) => (
        <li key={link.key}>
          <MenuLink to={link.to} current={current}>
            {t(`browse.${link.key}`)}
          </MenuLink>
        </li>
      ))}
    </ul>
  );
}

/** Closes an open part on Escape (focus back to its button) and, with `outside`, on a press outside it. */
function useClosing(open: boolean, close: () => void, button: RefObject<HTMLButtonElement | null>, outside?: RefObject<HTMLElement | null>) {
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      close();
      button.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (outside && !outside.current?.contains(e.target as Node)) close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, close, button, outside]);
}

const FOCUSABLE = 'a[href], button:not([disabled]), select:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Holds Tab inside the open phone menu (its close button, then its links): the page behind its backdrop is covered,
 * so a focus that walked out onto it would be on links nobody can see.
 */
function useFocusHeld(open: boolean, button: RefObject<HTMLButtonElement | null>, panel: RefObject<HTMLElement | null>) {
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      // From 768px the menu is the header's row, not a panel over the page: nothing to hold.
      if (e.key !== 'Tab' || !button.current || !panel.current || button.current.getClientRects().length === 0) return;
      const inPanel = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
      const cycle = [button.current, ...inPanel];
      const at = cycle.indexOf(document.activeElement as HTMLElement);
      const next = at === -1 ? 0 : (at + (e.shiftKey ? -1 : 1) + cycle.length) % cycle.length;
      e.preventDefault();
      cycle[next]!.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, button, panel]);
}

/**
 * Closes an open part when the page shown changes (in the app, a link followed), not after the first render: on a
 * reading page the menu is adopted at the reader's first press (islands/start.tsx), whose opening a close run as the
 * first render's effect would undo.
 */
function useClosedOnNavigation(current: string, close: () => void) {
  const shown = useRef(current);
  useEffect(() => {
    if (shown.current === current) return;
    shown.current = current;
    close();
  }, [current, close]);
}

/**
 * "Browse": every list and the ways to read across them. From 768px a button opens it under the header; in the phone
 * menu it is open, so every list is two taps from any page (the menu, then the list).
 */
function BrowseMenu({ current }: { current: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLLIElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useClosedOnNavigation(current, close);
  useClosing(open, close, buttonRef, rootRef);
  return (
    <li className="browse" ref={rootRef}>
      <button ref={buttonRef} type="button" className="browse-toggle" aria-expanded={open} aria-controls="browse-panel" onClick={() => setOpen((v) => !v)}>
        {t('nav.browse')} <span aria-hidden="true">▾</span>
      </button>
      <div id="browse-panel" className={`browse-panel${open ? ' is-open' : ''}`}>
        <p className="browse-heading" aria-hidden="true">
          {t('nav.browse')}
        </p>
        <LinkList links={SITE_LISTS} label={t('nav.listsLabel')} current={current} />
        <LinkList links={SITE_TOOLS} label={t('nav.toolsLabel')} current={current} />
      </div>
    </li>
  );
}

function MenuItems({ current, reader, onLanguageChanged }: { current: string; reader: MenuReader; onLanguageChanged: () => void }) {
  const { t } = useTranslation();
  const link = (to: string, text: string, className?: string) => (
    <li className={className}>
      <MenuLink to={to} current={current}>
        {text}
      </MenuLink>
    </li>
  );
  return (
    <ul className="site-menu-items">
      {link(paths.about, t('nav.about'))}
      {link(paths.list('events'), t('nav.events'))}
      <BrowseMenu current={current} />
      {/* In the phone menu these are in the open Browse list already. */}
      {link(paths.search, t('search.nav'), 'wide-only')}
      {link(paths.statistics, t('statistics.nav'), 'wide-only')}
      <li>
        {/* The witness's form is a page of the server's own: a full page load, not a route of the app. */}
        <a href={paths.testify}>{t('nav.testify')}</a>
      </li>
      {reader.signedIn ? link(paths.dashboard, t('nav.dashboard')) : null}
      {reader.staff ? link(paths.admin, t('nav.admin')) : null}
      {reader.signedIn ? link(paths.sessions, t('accounts.accountLink')) : null}
      {reader.signedIn ? link(paths.logout, t('nav.logout')) : link(paths.signin, t('nav.signIn'))}
      <li>
        <LanguageSwitch onChanged={onLanguageChanged} />
      </li>
    </ul>
  );
}

/**
 * The site's menu: About, Events, Browse (every list), Search, Statistics, Dashboard (signed in), Admin (staff), Sign In
 * or Logout, the language, and the site's contact address and social link. Below 768px it is a slide-in panel opened
 * by a button. An island (islands/Island.tsx): it works on a reading page without the app.
 */
export function SiteMenu({ current, reader, contactEmail, socialUrl }: SiteMenuProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useClosedOnNavigation(current, close);
  useClosing(open, close, toggleRef);
  useFocusHeld(open, toggleRef, panelRef);
  useEffect(() => {
    if (open) panelRef.current?.querySelector<HTMLElement>('a, button')?.focus();
  }, [open]);

  /** A language chosen in the phone menu closes it: the page is what the visitor wants to see in that language. */
  const onLanguageChanged = () => {
    if (!open) return;
    setOpen(false);
    toggleRef.current?.focus();
  };

  return (
    <>
      <button ref={toggleRef} type="button" className="menu-toggle" aria-expanded={open} aria-controls="site-menu" onClick={() => setOpen((v) => !v)}>
        <span aria-hidden="true">{open ? '✕' : '☰'}</span>
        <span className="visually-hidden">{open ? t('nav.closeMenu') : t('nav.menu')}</span>
      </button>
      <nav id="site-menu" ref={panelRef} className={`site-menu${open ? ' is-open' : ''}`} aria-label={t('nav.menu')}>
        <MenuItems current={current} reader={reader} onLanguageChanged={onLanguageChanged} />
        <p className="header-contact">
          <a href={`mailto:${contactEmail}`} data-testid="header-contact">
            <span aria-hidden="true">✉ </span>
            {contactEmail}
          </a>
          <a href={socialUrl} rel="noopener noreferrer" target="_blank" data-testid="header-social">
            {t('footer.social')}
          </a>
        </p>
      </nav>
      {open ? <div className="menu-backdrop" aria-hidden="true" onClick={close} /> : null}
    </>
  );
}
