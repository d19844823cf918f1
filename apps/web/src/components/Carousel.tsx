import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from '../lib/translate';
import './media.css';

/**
 * Several items shown one at a time with previous/next arrows and an "n/total" counter. Arrows move by one;
 * the left arrow is hidden at the first item and the right at the last. Left/right arrow keys work when it has focus.
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
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowLeft' && !atFirst) setIndex(current - 1);
    if (e.key === 'ArrowRight' && !atLast) setIndex(current + 1);
  };
  return (
    <section className="carousel" aria-roledescription="carousel" aria-label={label} tabIndex={0} onKeyDown={onKeyDown}>
      <div className="carousel-item" aria-roledescription="slide" aria-label={t('record.imageOf', { n: current + 1, total: items.length })}>
        {render(item, current)}
      </div>
      <div className="carousel-controls">
        {atFirst ? (
          <span className="carousel-arrow-space" />
        ) : (
          <button type="button" className="carousel-arrow" onClick={() => setIndex(current - 1)} aria-label={t('common.previous')}>
            <span aria-hidden="true">‹</span>
          </button>
        )}
        <span className="carousel-counter" data-testid="carousel-counter">{`${current + 1}/${items.length}`}</span>
        {atLast ? (
          <span className="carousel-arrow-space" />
        ) : (
          <button type="button" className="carousel-arrow" onClick={() => setIndex(current + 1)} aria-label={t('common.next')}>
            <span aria-hidden="true">›</span>
          </button>
        )}
        {extra?.(item, current)}
      </div>
    </section>
  );
}
