import { useLayoutEffect, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { nextTask } from './nextTask';

/**
 * What the browser is adopting of a server-rendered page, if anything: the page (its first render, until that render
 * is committed) or one of its parts (from the task that releases it to the next one; Preact renders it in that task).
 * Meanwhile renders must produce the page exactly as the server did. Components that choose something per visit (the
 * home page's accent) choose it after that render.
 */
let adopting: 'page' | 'part' | null = null;

export const rendersServerPage = (): boolean => adopting !== null || typeof window === 'undefined';

/** Parts of the page whose adoption waits for a later task (see `laterTurn`), in page order. */
const waitingParts: Array<() => void> = [];

/** Where the parts found inside the part being adopted go in the queue: right after it, in their order. */
let insertAt = 0;

/** Called once the last part has been adopted: a part renders in the task that releases it, so in the task after. */
let onAllAdopted: (() => void) | null = null;

function releaseOnePerTask(): void {
  adopting = null;
  const release = waitingParts.shift();
  if (!release) {
    onAllAdopted?.();
    onAllAdopted = null;
    return;
  }
  adopting = 'part';
  insertAt = 0;
  release();
  void nextTask().then(releaseOnePerTask);
}

function finishAdoption(): void {
  if (adopting !== 'page') return;
  adopting = null;
  // The first part too waits for a task of its own: releasing it now would render it in the page's task.
  void nextTask().then(releaseOnePerTask);
}

/** Last in the tree: its layout effect runs when the first render over the server's page is committed. */
function AdoptionDone() {
  useLayoutEffect(finishAdoption, []);
  return null;
}

/**
 * The app takes over the page the server rendered in `container` (hydration: the server's elements are kept, and
 * given their behaviour), rather than drawing it again. Preact renders it at once, React in a task of its own.
 * Settles once every part of the page has been adopted (React adopts its Suspense parts on its own schedule, which
 * may end a little later).
 */
export function adoptServerPage(container: Element, app: ReactNode): Promise<void> {
  const adopted = new Promise<void>((resolve) => {
    onAllAdopted = resolve;
  });
  adopting = 'page';
  hydrateRoot(
    container,
    <>
      {app}
      <AdoptionDone />
    </>,
  );
  return adopted;
}

/**
 * While the app adopts a server-rendered page, a promise that settles in a later task, one part per task in page
 * order; otherwise null. A component that throws it inside <Suspense> is left as the server drew it (readable, its
 * links plain links) and adopted when its turn comes, so adopting a long page is many short tasks instead of one long
 * one that would leave the visitor's taps unanswered (`components/AdoptLater`).
 */
export function laterTurn(): Promise<void> | null {
  if (adopting === null || typeof window === 'undefined') return null;
  // The page's parts queue in page order; a part's own parts go right after it, before the page's next one.
  return new Promise((resolve) => {
    if (adopting === 'page') waitingParts.push(resolve);
    else waitingParts.splice(insertAt++, 0, resolve);
  });
}
