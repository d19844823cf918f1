import { Suspense, type ReactNode } from 'react';
import { laterTurn } from '../lib/serverPage';

function WaitForTurn({ children }: { children: ReactNode }) {
  const turn = laterTurn();
  if (turn) throw turn;
  return children;
}

/**
 * Over a server-rendered page, its children are adopted by the app in a task of their own after the rest of the page
 * (a list's cards, one per task); anywhere else they render at once. Suspense keeps the server's markup on screen
 * until then (Preact and React both hydrate a suspended part later). The children must render one element, and the
 * same one the server drew: they are adopted after `rendersServerPage()` has turned false.
 */
export function AdoptLater({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <WaitForTurn>{children}</WaitForTurn>
    </Suspense>
  );
}
