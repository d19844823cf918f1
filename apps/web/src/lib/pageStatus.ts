/**
 * A page that renders "not found" for an address the router matched (a record address that names no record) tells the
 * server's renderer, which answers it with 404 like an unknown address. Renders on the server are synchronous, so the
 * flag belongs to the render that set it: the renderer clears it before each render and reads it after.
 */
let notFound = false;

/** Called while rendering a "not found" page. */
export function reportNotFound(): void {
  if (typeof window === 'undefined') notFound = true;
}

/** Whether the last render reported "not found"; clears the flag. */
export function takeNotFound(): boolean {
  const reported = notFound;
  notFound = false;
  return reported;
}

/**
 * The page's title, as its heading names it (components/PageTitle.tsx), for the server's <title>: a reading page
 * without the app never runs the effect that names the browser's tab. The first title of a render is the page's.
 */
let title: string | null = null;

export function reportTitle(pageTitle: string): void {
  if (typeof window === 'undefined' && title === null) title = pageTitle;
}

/** The title the last render reported, if any; clears it. */
export function takeTitle(): string | null {
  const reported = title;
  title = null;
  return reported;
}
