import { useCallback, useEffect, useState, type RefObject } from 'react';

/**
 * True once the element comes near the viewport, or once `now()` is called (e.g. on focus): lets the form fetch its
 * data only when the visitor can reach it. Without IntersectionObserver it is true at once.
 */
export function useWhenNear(ref: RefObject<Element | null>, rootMargin = '300px'): [boolean, () => void] {
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (near) return;
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setNear(true);
    }, { rootMargin });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, ref, rootMargin]);
  const now = useCallback(() => setNear(true), []);
  return [near, now];
}
