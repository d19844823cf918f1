import type { ComponentType, DetailedHTMLProps, HTMLAttributes } from 'react';
import type { IslandName } from './registry';

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      /** The element an island is mounted on (display: contents, so it takes no part in the layout). */
      'island-root': DetailedHTMLProps<HTMLAttributes<HTMLElement> & { 'data-island': string; 'data-props': string }, HTMLElement>;
    }
  }
}

/** The islands a server render used, so the page can link their code; null outside a server render. */
let usedIslands: Set<IslandName> | null = null;

/** The server's renderer collects the islands of the page it renders into `into` (null: stop collecting). */
export function collectIslands(into: Set<IslandName> | null): void {
  usedIslands = into;
}

/**
 * A part of a reading page that a reader interacts with (the menu, a copy button, a carousel...). On a page the server
 * rendered for a signed-out reader, only these parts run in the browser: islands/start.tsx finds each by its element,
 * loads its component by `name` (islands/registry.ts) and adopts the server's markup with the same `props`, so they
 * must be JSON (no functions). In the app it renders as any component, in the same element.
 */
export function Island<P extends object>({ name, component: Component, props }: { name: IslandName; component: ComponentType<P>; props: P }) {
  usedIslands?.add(name);
  return (
    <island-root data-island={name} data-props={JSON.stringify(props)}>
      <Component {...props} />
    </island-root>
  );
}
