import { createElement, lazy, type ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { SlotsProvider, type Slots } from '../components/Slots';
import { httpsRedirectTarget } from '../lib/https';
import { nextTask } from '../lib/nextTask';
import { setTranslations } from '../lib/translate';
import { adoptedAtOnce, isIslandName, loadIsland, reachedThrough, type IslandName } from './registry';
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

/** An island's component, loading (the page links its code, so it is on its way already). */
function componentOf(element: HTMLElement): Promise<ComponentType<Record<string, unknown>>> {
  const name = element.dataset.island ?? '';
  return isIslandName(name) ? loadIsland(name) : Promise.reject(new Error(`unknown island ${name}`));
}

function adopt(element: HTMLElement, component: ComponentType<Record<string, unknown>>): void {
  const props = JSON.parse(element.dataset.props ?? '{}') as Record<string, unknown>;
  hydrateRoot(element, createElement(SlotsProvider, { value: slots }, createElement(component, props)));
  // Browser tests read whether, and when, an island was adopted.
  element.dataset.adopted = '';
}

/** Every way a reader reaches an island's controls: by pointer, touch, keyboard or focus, and what they send. */
const REACHED_BY = ['focusin', 'pointerdown', 'touchstart', 'mousedown', 'keydown', 'click', 'input', 'change', 'submit'] as const;

/**
 * Adopts the island at the first event that reaches it, in the capture phase, so before the event gets to its
 * target: the production build's adoption (Preact's hydrate) is synchronous and adds the handlers to the elements,
 * which the same event then reaches (the DOM calls the listeners a node has when the event gets to it). A page that
 * is only read never adopts it: adopting the menu and the filters was most of a reading page's script time.
 */
function adoptWhenReached(element: HTMLElement, component: ComponentType<Record<string, unknown>>): void {
  const area = reachedThrough(element.dataset.island as IslandName, element);
  const adoptNow = () => {
    for (const type of REACHED_BY) area.removeEventListener(type, adoptNow, true);
    adopt(element, component);
  };
  for (const type of REACHED_BY) area.addEventListener(type, adoptNow, { capture: true, passive: true });
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
  setTranslations(englishStrings(startApp, () => stringsOfPage()));
  // An island inside another is part of it: adopted with it.
  const roots = [...document.querySelectorAll<HTMLElement>('island-root')].filter((el) => !el.parentElement?.closest('island-root'));
  // Their code loads together; each is adopted in a task of its own, so none makes one long task of them all (a phone
  // at Lighthouse's throttling counted each millisecond eight times as blocking).
  const components = roots.map(componentOf);
  // A failed one is reported in its turn below (not as an unhandled rejection while an earlier one is adopted).
  for (const component of components) component.catch(() => undefined);
  for (const [i, root] of roots.entries()) {
    try {
      const component = await components[i]!;
      if (!adoptedAtOnce(root.dataset.island as IslandName)) {
        adoptWhenReached(root, component);
        continue;
      }
      adopt(root, component);
    } catch (error) {
      console.error(error);
    }
    await nextTask();
  }
  // Every island works from here, adopted or waiting to be reached (browser tests wait for it, as they do for the app).
  document.documentElement.dataset.app = 'ready';
}

// Plain http on a non-localhost origin goes to https (as the app does).
const https = httpsRedirectTarget(window.location);
if (https) window.location.replace(https);
else void start();
