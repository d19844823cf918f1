import { createElement, lazy } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { SlotsProvider, type Slots } from '../components/Slots';
import { httpsRedirectTarget } from '../lib/https';
import { setTranslations } from '../lib/translate';
import { isIslandName, loadIsland } from './registry';
import { englishStrings, stringsOfPage } from './strings';

/**
 * A reading page's code for a signed-out reader in English (start-app.js chooses it; anyone else gets the app): each
 * island of the page (islands/Island.tsx) adopts its server-rendered markup; nothing else of the page runs. Links
 * are plain links, to pages that arrive rendered. The app is started only when the reader asks for what it alone
 * does (another language): `window.startApp`, set by start-app.js.
 */
declare global {
  interface Window {
    startApp?: () => void;
  }
}

const startApp = () => window.startApp?.();

/** What features show inside each other's islands (as app/slots.tsx for the app). */
const slots: Slots = {
  campaignForm: lazy(() => import('./LetterForm')),
};

async function adopt(element: HTMLElement): Promise<void> {
  const name = element.dataset.island ?? '';
  if (!isIslandName(name)) throw new Error(`unknown island ${name}`);
  const component = await loadIsland(name);
  const props = JSON.parse(element.dataset.props ?? '{}') as Record<string, unknown>;
  hydrateRoot(element, createElement(SlotsProvider, { value: slots }, createElement(component, props)));
}

/**
 * Whether the server could not finish the page: its screen itself still says "Loading..." (its data did not come, e.g.
 * a record a signed-out reader may not see, which the app sends on to its list with a word why), or is empty (a screen
 * that sends the reader elsewhere, e.g. a merged record's old address to the kept record's).
 */
const unfinished = () => document.querySelector('#main > .status[role="status"]') !== null || document.querySelector('#main > *') === null;

async function start(): Promise<void> {
  // Such a page is the app's to finish.
  if (unfinished()) return startApp();
  setTranslations(englishStrings(startApp, stringsOfPage()));
  // An island inside another is part of it: adopted with it.
  const roots = [...document.querySelectorAll<HTMLElement>('island-root')].filter((el) => !el.parentElement?.closest('island-root'));
  const adopted = await Promise.allSettled(roots.map(adopt));
  for (const result of adopted) if (result.status === 'rejected') console.error(result.reason);
  // Every island works from here (browser tests wait for it, as they do for the app).
  document.documentElement.dataset.app = 'ready';
}

// Plain http on a non-localhost origin goes to https (as the app does).
const https = httpsRedirectTarget(window.location);
if (https) window.location.replace(https);
else void start();
