import { CATEGORY_ROUTES } from '../routes';
import type { CategoryDef } from '../types';
import { f } from './common';

export const videos = {
  slug: 'videos',
  route: CATEGORY_ROUTES.videos,
  singular: 'category.videos.singular',
  pickerLabel: 'Video',
  pickerOrder: 4,
  fields: [
    f.title,
    f.subtitle,
    f.location,
    f.happenedOn,
    f.sources,
    f.createdAt,
    f.description,
    // The spec's create call sends the video file in the multipart field `image`; a link may be given instead.
    { name: 'videoUrl', kind: 'url', label: 'field.videoUrl' },
    { name: 'image', kind: 'video', label: 'field.video' },
  ],
  listName: 'Videos',
  listTitle: 'category.videos.listTitle',
  previewLength: 250,
  emptyText: 'empty.data',
  media: 'video',
  approvable: true,
  hasAccessToggle: false,
  inGallery: false,
  cardFields: ['location', 'happenedOn'],
  redirectDelayMs: 3000,
} as const satisfies CategoryDef;
