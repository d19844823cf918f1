import type { FieldDef } from '../types';

/** Field declarations shared by several categories; each category lists the ones it uses, in its form order. */
export const f = {
  title: { name: 'title', kind: 'text', label: 'field.title', required: true },
  subtitle: { name: 'subtitle', kind: 'text', label: 'field.subtitle' },
  description: { name: 'description', kind: 'markdown', label: 'field.description', required: true },
  // The published date orders lists, feeds and exports: one in the future would put its record first for ever.
  createdAt: { name: 'createdAt', kind: 'datetime', label: 'field.createdAt', notInFuture: true },
  fullName: { name: 'fullName', kind: 'text', label: 'field.fullName', cardLabel: 'record.victimName' },
  location: { name: 'location', kind: 'text', label: 'field.location' },
  region: { name: 'region', kind: 'region', label: 'field.region', hint: 'hint.region' },
  zone: { name: 'zone', kind: 'text', label: 'field.zone', max: 100 },
  woreda: { name: 'woreda', kind: 'text', label: 'field.woreda', max: 100 },
  victimizer: { name: 'victimizer', kind: 'text', label: 'field.victimizer' },
  killingType: { name: 'killingType', kind: 'text', label: 'field.killingType' },
  happenedOn: { name: 'happenedOn', kind: 'date', label: 'field.happenedOn' },
  quantity: { name: 'quantity', kind: 'quantity', label: 'field.quantity' },
  remark: { name: 'remark', kind: 'text', label: 'field.remark' },
  image: { name: 'image', kind: 'image', label: 'field.image' },
  files: { name: 'files', kind: 'images', label: 'field.files' },
} as const satisfies Record<string, FieldDef>;

/** Where in Ethiopia: the region from the controlled list, then zone and woreda as written. */
export const place = [f.region, f.zone, f.woreda] as const satisfies readonly FieldDef[];

