/**
 * Going to another address from code (a filter form's submit). On a reading page without the app it is a page load;
 * the app plugs in its router, so the same component navigates inside the app there.
 */
let navigator: (to: string) => void = (to) => window.location.assign(to);
let appRouting = false;

export function setNavigator(go: (to: string) => void): void {
  navigator = go;
  appRouting = true;
}

/** Whether the app runs the page (its screens handle their forms), not only the page's islands. */
export const appRuns = (): boolean => appRouting;

export const goTo = (to: string): void => navigator(to);
