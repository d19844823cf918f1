import { Suspense, useRef, type ReactNode } from 'react';
import { laterTurn } from '../lib/serverPage';

/** A part's one turn: asked for once, when the part first renders (asking again would wait again). */
interface Turn {
  promise: Promise<void> | null;
  come: boolean;
}

function WaitForTurn({ turn, children }: { turn: Turn; children: ReactNode }) {
  if (!turn.come) throw turn.promise;
  return children;
}

/**
 * Over a server-rendered page, its children are adopted by the app in a task of their own after the rest of the page
 * (the main area, then a list's cards, one per task: parts inside a part come right after it); anywhere else they
 * render at once. Suspense keeps the server's markup on screen until then (Preact and React both hydrate a suspended
 * part later). The children must render one element, and the same one the server drew: while they are adopted,
 * `rendersServerPage()` is true.
 */
export function AdoptLater({ children }: { children: ReactNode }) {
  const turn = useRef<Turn | null>(null);
  if (turn.current === null) {
    const promise = laterTurn();
    const asked: Turn = { promise, come: promise === null };
    // Settled before Suspense, which subscribes later, renders the part again.
    void promise?.then(() => {
      asked.come = true;
    });
    turn.current = asked;
  }
  return (
    <Suspense fallback={null}>
      <WaitForTurn turn={turn.current}>{children}</WaitForTurn>
    </Suspense>
  );
}
