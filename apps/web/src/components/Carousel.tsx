import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '../lib/translate';
import './media.css';

/**
 * The carousel's moves: to an item (`move`), by its arrow keys, and where the focus goes after one: the pressed arrow,
 * or the other one when the pressed one is hidden at an end.
 */
function useCarouselMoves(current: number, count: number, setIndex: (index: number) => void) {
  const rootRef = useRef<HTMLElement>(null);
  const previousRef = useRef<HTMLButtonElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  // The arrow to focus once the move is drawn: the one pressed, or the other when the pressed one is gone.
  const focusAfterMove = useRef<'previous' | 'next' | null>(null);
  const last = count - 1;

  const move = (to: number) => {
    if (to < 0 || to > last || to === current) return;
    const active = document.activeElement;
    if (active && (active === previousRef.current || active === nextRef.current)) {
      const pressed = active === previousRef.current ? 'previous' : 'next';
      focusAfterMove.current = to === 0 ? 'next' : to === last ? 'previous' : pressed;
    }
    setIndex(to);
  };
  // The document's key listener is set once; it turns the carousel as it is drawn now.
  const stepRef = useRef((delta: number) => move(current + delta));
  stepRef.current = (delta: number) => move(current + delta);

  useEffect(() => {
    const target = focusAfterMove.current;
    focusAfterMove.current = null;
    if (target) (target === 'previous' ? previousRef : nextRef).current?.focus();
  }, [current]);

  useEffect(() => {
    if (count < 2) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      const target = e.target as HTMLElement | null;
      const onPage = !target || target === document.body || target === document.documentElement;
      if (!onPage && !rootRef.current?.contains(target)) return;
      if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
      e.preventDefault();
      stepRef.current(e.key === 'ArrowLeft' ? -1 : 1);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [count]);
  return { rootRef, previousRef, nextRef, move };
}

/**
 * Several items shown one at a time with previous/next arrows and an "n/total" counter. Arrows move by one;
 * the left arrow is hidden at the first item and the right at the last, the focus then going to the other arrow (not
 * dropped on the page with the arrow it was on). Left/right arrow keys turn it while the focus is in it or on nothing
 * (the page itself), as the /images viewer's keys do; keys typed into a field are the field's.
 * A single item is shown as it is: no arrows, no "1/1".
 */
export function Carousel<T>({
  items,
  label,
  render,
  extra,
}: {
  items: T[];
  label: string;
  render: (item: T, index: number) => ReactNode;
  /** Controls for the current item (e.g. delete image). */
  extra?: (item: T, index: number) => ReactNode;
}) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const current = Math.min(index, Math.max(items.length - 1, 0));
  const { rootRef, previousRef, nextRef, move } = useCarouselMoves(current, items.length, setIndex);

  if (items.length === 0) return null;
  const item = items[current]!;
  if (items.length === 1) {
    return (
      <section className="carousel carousel-single" aria-label={label}>
        <div className="carousel-item">{render(item, 0)}</div>
        {extra ? <div className="carousel-controls">{extra(item, 0)}</div> : null}
      </section>
    );
  }
  const atFirst = current === 0;
  const atLast = current === items.length - 1;
  return (
    <section ref={rootRef} className="carousel" aria-roledescription="carousel" aria-label={label} tabIndex={0}>
      <div className="carousel-item" aria-roledescription="slide" aria-label={t('record.imageOf', { n: current + 1, total: items.length })}>
        {render(item, current)}
      </div>
      <div className="carousel-controls">
        {atFirst ? (
          <span className="carousel-arrow-space" />
        ) : (
          <button ref={previousRef} type="button" className="carousel-arrow" onClick={() => move(current - 1)} aria-label={t('common.previous')}>
            <span aria-hidden="true">‹</span>
          </button>
        )}
        <span className="carousel-counter" data-testid="carousel-counter">{`${current + 1}/${items.length}`}</span>
        {atLast ? (
          <span className="carousel-arrow-space" />
        ) : (
          <button ref={nextRef} type="button" className="carousel-arrow" onClick={() => move(current + 1)} aria-label={t('common.next')}>
            <span aria-hidden="true">›</span>
          </button>
        )}
        {extra?.(item, current)}
      </div>
    </section>
  );
}
