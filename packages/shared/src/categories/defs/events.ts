import { CATEGORY_ROUTES } from '../routes';
import type { CategoryDef } from '../types';
import { coordinates, f, place } from './common';

export const events = {
  slug: 'events',
  route: CATEGORY_ROUTES.events,
  singular: 'category.events.singular',
  pickerLabel: 'Event',
  pickerOrder: 8,
  fields: [
    f.title,
    f.subtitle,
    f.description,
    { name: 'country', kind: 'text', label: 'field.country', max: 100 },
    { name: 'city', kind: 'text', label: 'field.city', max: 100, search: 'B' },
    { name: 'streetName', kind: 'text', label: 'field.streetName', max: 200 },
    ...place,
    ...coordinates,
    f.sources,
    f.acledEventId,
    f.createdAt,
    { name: 'startAt', kind: 'datetime', label: 'field.startAt', statistics: 'incidentDate' },
    { name: 'endAt', kind: 'datetime', label: 'field.endAt' },
    f.files,
  ],
  listName: 'Events',
  listTitle: 'category.events.listTitle',
  previewLength: 150,
  emptyText: 'empty.event',
  media: 'images',
  approvable: true,
  hasAccessToggle: true,
  inGallery: false,
  cardFields: ['country', 'city', 'streetName', 'startAt', 'endAt'],
} as const satisfies CategoryDef;
