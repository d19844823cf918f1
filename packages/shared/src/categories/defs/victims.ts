import type { CategoryDef } from '../types';
import { f, place } from './common';

export const victims = {
  slug: 'victims',
  route: '/victims',
  singular: 'category.victims.singular',
  pickerLabel: 'Victim',
  pickerOrder: 5,
  fields: [
    f.title,
    f.subtitle,
    f.fullName,
    f.location,
    ...place,
    f.victimizer,
    f.killingType,
    { ...f.happenedOn, label: 'field.killedOn' },
    f.incidentId,
    f.description,
    f.sources,
    f.createdAt,
    f.image,
  ],
  listName: 'Victims',
  listTitle: 'category.victims.listTitle',
  previewLength: 250,
  emptyText: 'empty.data',
  media: 'image',
  approvable: true,
  hasAccessToggle: false,
  inGallery: true,
  cardFields: ['fullName', 'location', 'region', 'victimizer', 'killingType', 'happenedOn'],
} as const satisfies CategoryDef;
