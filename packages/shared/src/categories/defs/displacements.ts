import { CATEGORY_ROUTES } from '../routes';
import type { CategoryDef } from '../types';
import { f, personCategory, place } from './common';

export const displacements = {
  slug: 'displacements',
  route: CATEGORY_ROUTES.displacements,
  singular: 'category.displacements.singular',
  pickerLabel: 'Displacement',
  pickerOrder: 1,
  fields: [
    f.title,
    f.subtitle,
    { ...f.quantity, label: 'field.displaced' },
    f.location,
    ...place,
    f.victimizer,
    { ...f.happenedOn, label: 'field.displacedOn' },
    f.incidentId,
    f.description,
    f.sources,
    f.createdAt,
    f.image,
  ],
  listName: 'Displaced People',
  listTitle: 'category.displacements.listTitle',
  previewLength: 150,
  ...personCategory,
  cardFields: ['quantity', 'location', 'region', 'victimizer', 'happenedOn'],
} as const satisfies CategoryDef;
