import { useLocation } from 'react-router';
import { categoryByRoute, type CategoryDef } from '@app/shared';

/** The category whose routes the current page is under (/victims/..., /educations/... -> blogs). */
export function useCategoryFromPath(): CategoryDef {
  const { pathname } = useLocation();
  const first = `/${pathname.split('/')[1] ?? ''}`;
  const category = categoryByRoute(first);
  if (!category) throw new Error(`No category is served at ${first}`);
  return category;
}
