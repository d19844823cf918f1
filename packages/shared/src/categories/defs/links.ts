import { CATEGORY_ROUTES } from '../routes';
import type { CategoryDef } from '../types';
import { f } from './common';

export const links = {
  slug: 'links',
  route: CATEGORY_ROUTES.links,
  singular: 'category.links.singular',
  pickerLabel: 'Link URL',
  pickerOrder: 7,
  fields: [
    f.title,
    f.subtitle,
    { name: 'linkURL', kind: 'url', label: 'field.linkURL', required: true },
    f.sources,
    f.createdAt,
    f.description,
    f.image,
  ],
  listName: 'Links',
  listTitle: 'category.links.listTitle',
  previewLength: 250,
  emptyText: 'empty.data',
  media: 'image',
  approvable: false,
  hasAccessToggle: false,
  inGallery: false,
  cardFields: ['linkURL'],
} as const satisfies CategoryDef;
