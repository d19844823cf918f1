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
