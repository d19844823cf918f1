import { CATEGORY_ROUTES } from '../routes';
import type { CategoryDef } from '../types';
import { f, namedPersonFields, personCategory } from './common';

export const victims = {
  slug: 'victims',
  route: CATEGORY_ROUTES.victims,
  singular: 'category.victims.singular',
  pickerLabel: 'Victim',
  pickerOrder: 5,
  fields: [
    ...namedPersonFields,
    f.killingType,
    { ...f.happenedOn, label: 'field.killedOn', shownWithTime: true },
    f.incidentId,
    f.description,
    f.sources,
    f.createdAt,
    f.image,
  ],
  listName: 'Victims',
  listTitle: 'category.victims.listTitle',
  previewLength: 250,
  ...personCategory,
  cardFields: ['fullName', 'location', 'region', 'victimizer', 'killingType', 'happenedOn'],
  checksDuplicates: true,
} as const satisfies CategoryDef;
