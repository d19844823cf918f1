import { useEffect } from 'react';
import { goTo } from '../../lib/navigate';

/**
 * The image viewer's left/right arrow keys: the previous and the next image (`previous`, `next`: their addresses).
 * An island: they work on a reading page without the app. Keys typed into a field are the field's.
 */
export function ViewerKeys({ previous, next }: { previous: string | null; next: string | null }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
      if (e.key === 'ArrowLeft' && previous) goTo(previous);
      if (e.key === 'ArrowRight' && next) goTo(next);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [previous, next]);
  return null;
}
