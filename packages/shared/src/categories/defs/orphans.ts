import type { CategoryDef } from '../types';
import { f, place } from './common';

export const orphans = {
  slug: 'orphans',
  route: '/orphans',
  singular: 'category.orphans.singular',
  pickerLabel: 'Orphan',
  pickerOrder: 2,
  fields: [
    f.title,
    f.subtitle,
    f.fullName,
    f.location,
    ...place,
    f.victimizer,
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
  emptyText: 'empty.data',
  media: 'image',
  approvable: true,
  hasAccessToggle: false,
  inGallery: true,
  cardFields: ['fullName', 'location', 'region', 'victimizer', 'happenedOn'],
  checksDuplicates: true,
} as const satisfies CategoryDef;
