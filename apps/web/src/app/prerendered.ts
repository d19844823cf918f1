import { hydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import { jsonForScript } from '@app/shared';

/**
 * The data a server-rendered page was rendered from travels in the page itself, as JSON in a script element, so the
 * browser's first render shows the same page without asking the API again.
 */
const STATE_ELEMENT_ID = 'app-state';

export function stateScript(state: DehydratedState): string {
  return `<script type="application/json" id="${STATE_ELEMENT_ID}">${jsonForScript(state)}</script>`;
}

/** Fills the client with the page's data, if the server rendered it; a damaged state is ignored (the app fetches). */
export function restoreState(queryClient: QueryClient, doc: Document = document): boolean {
  const text = doc.getElementById(STATE_ELEMENT_ID)?.textContent;
  if (!text) return false;
  try {
    hydrate(queryClient, JSON.parse(text) as DehydratedState);
    return true;
  } catch {
    return false;
  }
}
