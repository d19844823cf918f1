import { act } from 'preact/test-utils';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdoptLater } from '../src/components/AdoptLater';
import { adoptServerPage, laterTurn, rendersServerPage } from '../src/lib/serverPage';

/**
 * Runs on preact/compat, as the production build does: React hydrates Suspense boundaries after the page on its own,
 * Preact does it through AdoptLater's turns.
 */

/** A part of a page that says when the app has adopted it (its effects run then) and counts clicks once adopted. */
function Part({ name, adopted }: { name: string; adopted: string[] }) {
  const [clicks, setClicks] = useState(0);
  useEffect(() => {
    adopted.push(name);
  }, [adopted, name]);
  return (
    <button type="button" data-part={name} onClick={() => setClicks((n) => n + 1)}>
      {name} {clicks}
    </button>
  );
}

function Page({ adopted }: { adopted: string[] }) {
  useEffect(() => {
    adopted.push('page');
  }, [adopted]);
  return (
    <div>
      <h1>Sample page (test)</h1>
      {['first', 'second', 'third'].map((name) => (
        <AdoptLater key={name}>
          <Part name={name} adopted={adopted} />
        </AdoptLater>
      ))}
    </div>
  );
}

/** A page whose main area is a part, with parts of its own inside (as the app's main area holds a list's cards). */
function NestedPage({ adopted, seen }: { adopted: string[]; seen: Record<string, boolean> }) {
  function Area({ children }: { children: React.ReactNode }) {
    // How the area renders while it is adopted: as the server did.
    seen.area = rendersServerPage();
    useEffect(() => {
      adopted.push('area');
    }, []);
    return <section>{children}</section>;
  }
  return (
    <div>
      <AdoptLater>
        <Part name="header" adopted={adopted} />
      </AdoptLater>
      <AdoptLater>
        <Area>
          {['inner-1', 'inner-2'].map((name) => (
            <AdoptLater key={name}>
              <Part name={name} adopted={adopted} />
            </AdoptLater>
          ))}
        </Area>
      </AdoptLater>
      <AdoptLater>
        <Part name="footer" adopted={adopted} />
      </AdoptLater>
    </div>
  );
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function serverPage(page: React.ReactElement = <Page adopted={[]} />): { container: HTMLElement; html: string } {
  const html = renderToString(page);
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  return { container, html };
}

describe('AdoptLater', () => {
  afterEach(() => {
    document.body.innerHTML = '';
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('renders its children at once when the app draws the page itself', () => {
    const adopted: string[] = [];
    const container = document.createElement('div');
    act(() => createRoot(container).render(<Page adopted={adopted} />));
    expect([...container.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['first 0', 'second 0', 'third 0']);
    expect(adopted).toEqual(['first', 'second', 'third', 'page']);
  });

  it('over a server-rendered page, keeps the server markup and adopts one part per task after the page, in page order', async () => {
    const { container, html } = serverPage();
    const serverButtons = [...container.querySelectorAll('button')];
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);

    // Turns then pass with setTimeout, in step with this test's own tasks.
    vi.stubGlobal('MessageChannel', undefined);

    const adopted: string[] = [];
    let allAdopted = false;
    void adoptServerPage(container, <Page adopted={adopted} />).then(() => {
      allAdopted = true;
    });
    // By the next task the page is adopted and the first part's turn has come, not the last's.
    await act(nextTask);
    expect(adopted.slice(0, 2)).toEqual(['page', 'first']);
    expect(adopted).not.toContain('third');
    expect(allAdopted).toBe(false);
    expect(container.innerHTML).toBe(html);
    // The other parts still show the server's markup and do not answer yet.
    act(() => serverButtons[2]!.click());
    expect(serverButtons[2]!.textContent).toBe('third 0');

    for (let i = 0; i < 5; i++) await act(nextTask);
    expect(adopted).toEqual(['page', 'first', 'second', 'third']);
    expect(allAdopted).toBe(true);
    // Adopted, not redrawn: the very elements the server sent, now answering clicks.
    const buttons = [...container.querySelectorAll('button')];
    expect(buttons).toHaveLength(3);
    buttons.forEach((button, i) => expect(button).toBe(serverButtons[i]));
    act(() => buttons[2]!.click());
    expect(buttons[2]!.textContent).toBe('third 1');
    expect(errors).not.toHaveBeenCalled();
  });

  it('adopts the parts inside a part in turns of their own, right after it, keeping every server element', async () => {
    const { container, html } = serverPage(<NestedPage adopted={[]} seen={{}} />);
    const serverElements = [...container.querySelectorAll('*')];
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal('MessageChannel', undefined);

    const adopted: string[] = [];
    const seen: Record<string, boolean> = {};
    let allAdopted = false;
    void adoptServerPage(container, <NestedPage adopted={adopted} seen={seen} />).then(() => {
      allAdopted = true;
    });
    // The page's own task adopts no part: each waits for a task of its own.
    expect(adopted).toEqual([]);
    const afterTasks: string[][] = [];
    for (let i = 0; i < 8; i++) {
      await act(nextTask);
      afterTasks.push([...adopted]);
    }
    expect(adopted).toEqual(['header', 'area', 'inner-1', 'inner-2', 'footer']);
    // One part per task: no task adopted two of them.
    const perTask = afterTasks.map((list, i) => list.length - (afterTasks[i - 1]?.length ?? 0));
    expect(Math.max(...perTask)).toBe(1);
    expect(seen.area).toBe(true);
    expect(allAdopted).toBe(true);
    expect(container.innerHTML).toBe(html);
    [...container.querySelectorAll('*')].forEach((element, i) => expect(element).toBe(serverElements[i]));
    const inner = container.querySelector<HTMLButtonElement>('[data-part="inner-2"]')!;
    act(() => inner.click());
    expect(inner.textContent).toBe('inner-2 1');
    expect(errors).not.toHaveBeenCalled();
  });

  it('waits only until the first render over a server-rendered page is committed', () => {
    expect(laterTurn()).toBeNull();
    const container = document.createElement('div');
    container.innerHTML = '<p>Sample (test)</p>';
    let during: Promise<void> | null = null;
    function Probe() {
      during ??= laterTurn();
      return <p>Sample (test)</p>;
    }
    act(() => adoptServerPage(container, <Probe />));
    expect(during).toBeInstanceOf(Promise);
    expect(laterTurn()).toBeNull();
  });
});
