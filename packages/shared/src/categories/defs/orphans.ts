import { CATEGORY_ROUTES } from '../routes';
import type { CategoryDef } from '../types';
import { f, namedPersonFields, personCategory } from './common';

export const orphans = {
  slug: 'orphans',
  route: CATEGORY_ROUTES.orphans,
  singular: 'category.orphans.singular',
  pickerLabel: 'Orphan',
  pickerOrder: 2,
  fields: [
    ...namedPersonFields,
    { ...f.happenedOn, label: 'field.lostParentsOn' },
    f.incidentId,
    f.sources,
    f.createdAt,
    f.description,
    f.image,
  ],
  listName: 'Orphans',
  listTitle: 'category.orphans.listTitle',
  previewLength: 150,
  ...personCategory,
  cardFields: ['fullName', 'location', 'region', 'victimizer', 'happenedOn'],
  checksDuplicates: true,
} as const satisfies CategoryDef;
