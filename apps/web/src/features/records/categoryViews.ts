import type { ComponentType } from 'react';
import type { CategoryDef, CategorySlug, RecordDto } from '@app/shared';
import { EventDetails } from './EventDetails';
import { MassacreTable } from './MassacreTable';

/**
 * A category's own presentation beside the generic list, card and detail page: the one place that says which
 * category has which, so the screens ask for a part instead of checking slugs.
 */
interface CategoryView {
  /** A table of the list beside its cards (?view=table): the massacres' fact sheet. */
  table?: ComponentType<{ records: RecordDto[] }>;
  /** A block the card and the detail page show for the category's card fields instead of the generic facts. */
  details?: ComponentType<{ record: RecordDto }>;
  /** Fields the details block shows, left out of the generic facts (the category's card fields when it has a block). */
  ownFields: ReadonlySet<string>;
}

const PARTS: Partial<Record<CategorySlug, Omit<CategoryView, 'ownFields'>>> = {
  massacres: { table: MassacreTable },
  // Start, end and address (country, city, street): events' card fields, shown as one block.
  events: { details: EventDetails },
};

const NONE: ReadonlySet<string> = new Set();
const views = new Map<CategorySlug, CategoryView>();

export function viewOf(category: CategoryDef): CategoryView {
  let view = views.get(category.slug);
  if (!view) {
    const parts = PARTS[category.slug] ?? {};
    view = { ...parts, ownFields: parts.details ? new Set(category.cardFields) : NONE };
    views.set(category.slug, view);
  }
  return view;
}
