import { CATEGORY_ROUTES } from '../routes';
import type { CategoryDef } from '../types';
import { f } from './common';

/** Blog posts; the dashboard calls them "Other" and the site shows them under /educations. */
export const blogs = {
  slug: 'blogs',
  route: CATEGORY_ROUTES.blogs,
  singular: 'category.blogs.singular',
  pickerLabel: 'Other',
  pickerOrder: 9,
  fields: [f.title, f.subtitle, f.createdAt, f.description, f.sources, f.image],
  listName: 'Education',
  listTitle: 'category.blogs.listTitle',
  previewLength: 250,
  emptyText: 'empty.blogs',
  media: 'image',
  approvable: false,
  hasAccessToggle: false,
  inGallery: false,
  cardFields: [],
} as const satisfies CategoryDef;
