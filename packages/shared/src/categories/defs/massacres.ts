import type { CategoryDef } from '../types';
import { f } from './common';

export const massacres: CategoryDef = {
  slug: 'massacres',
  route: '/massacres',
  singular: 'category.massacres.singular',
  pickerLabel: 'Massacre',
  pickerOrder: 3,
  fields: [
    { name: 'caseNum', kind: 'text', label: 'field.caseNum', max: 100 },
    f.title,
    f.subtitle,
    { ...f.quantity, label: 'field.killed' },
    f.location,
    f.victimizer,
    f.killingType,
    f.happenedOn,
    { name: 'shortDescription', kind: 'text', label: 'field.shortDescription', max: 1000 },
    { name: 'evidence', kind: 'urlList', label: 'field.evidence', hint: 'hint.evidence' },
    f.remark,
    f.description,
    f.createdAt,
    f.files,
  ],
  listTitle: 'category.massacres.listTitle',
  previewLength: 250,
  emptyText: 'empty.data',
  media: 'images',
  approvable: true,
  hasAccessToggle: true,
  inGallery: true,
  cardFields: ['caseNum', 'quantity', 'location', 'victimizer', 'killingType', 'happenedOn'],
};
