import { act } from 'preact/test-utils';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdoptLater } from '../src/components/AdoptLater';
import { adoptServerPage, laterTurn } from '../src/lib/serverPage';

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

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function serverPage(): { container: HTMLElement; html: string } {
  const html = renderToString(<Page adopted={[]} />);
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
