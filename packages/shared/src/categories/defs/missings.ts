import { CATEGORY_ROUTES } from '../routes';
import type { CategoryDef } from '../types';
import { f, personCategory, place } from './common';

export const missings = {
  slug: 'missings',
  route: CATEGORY_ROUTES.missings,
  singular: 'category.missings.singular',
  pickerLabel: 'Missing',
  pickerOrder: 6,
  fields: [
    f.title,
    f.subtitle,
    f.location,
    ...place,
    { ...f.quantity, label: 'field.kidnapped' },
    f.victimizer,
    { ...f.happenedOn, label: 'field.kidnappedOn' },
    f.incidentId,
    f.sources,
    f.createdAt,
    f.description,
    f.image,
  ],
  listName: 'Missing',
  listTitle: 'category.missings.listTitle',
  previewLength: 150,
  ...personCategory,
  cardFields: ['quantity', 'location', 'region', 'victimizer', 'happenedOn'],
  checksDuplicates: true,
} as const satisfies CategoryDef;
