/**
 * True while a render must produce the page exactly as the server renders it: on the server, and during the
 * browser's first render over a server-rendered page (hydration, which is synchronous). Components that choose
 * something per visit (the home page's accent) choose it after that render.
 */
let adopting = false;

export const rendersServerPage = (): boolean => adopting || typeof window === 'undefined';

export function adoptServerPage(render: () => void): void {
  adopting = true;
  try {
    render();
  } finally {
    adopting = false;
  }
}
