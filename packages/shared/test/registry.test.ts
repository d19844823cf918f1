import { describe, expect, it } from 'vitest';
import {
  CATEGORY_LIST,
  PICKER_CATEGORIES,
  fieldErrors,
  parseDateTime,
  recordInputSchema,
  CATEGORIES,
  REGIONS,
  fieldSchema,
  hasPlace,
  showsTitleHeading,
  usesImagePlaceholder,
} from '../src';

describe('category registry', () => {
  it('lists the dashboard picker in the spec order', () => {
    expect(PICKER_CATEGORIES.map((c) => c.pickerLabel)).toEqual([
      'Displacement', 'Orphan', 'Massacre', 'Video', 'Victim', 'Missing', 'Link URL', 'Event', 'Other',
    ]);
  });

  it('keeps the spec preview lengths', () => {
    const lengths = Object.fromEntries(CATEGORY_LIST.map((c) => [c.slug, c.previewLength]));
    expect(lengths).toMatchObject({ displacements: 150, events: 150, orphans: 150, missings: 150, links: 250, victims: 250, massacres: 250 });
  });

  it("names only its own fields in card fields and annotations, and every list has a name", () => {
    for (const category of CATEGORY_LIST) {
      const names = new Set(category.fields.map((f) => f.name));
      for (const name of category.cardFields) expect(names, `${category.slug} card field ${name}`).toContain(name);
      for (const field of category.fields) {
        if (field.annotatedBy) expect(names, `${category.slug}.${field.name} annotated by ${field.annotatedBy}`).toContain(field.annotatedBy);
      }
      expect(category.listName.length).toBeGreaterThan(0);
    }
    // The incident date reads as a day with the remark after it; posted, start and end dates keep their time.
    expect(CATEGORIES.massacres.fields.find((f) => f.name === 'happenedOn')).toMatchObject({ kind: 'date', annotatedBy: 'remark' });
    expect(CATEGORIES.events.fields.filter((f) => f.kind === 'datetime').map((f) => f.name)).toEqual(['createdAt', 'startAt', 'endAt']);
  });

  // The public contract's fields in its order, with the place (region, zone, woreda) after the free-text location.
  it('declares the create fields of massacres in the order of the public contract, with the casualty-recording fields added', () => {
    const contract = [
      'caseNum', 'title', 'subtitle', 'quantity', 'location', 'region', 'zone', 'woreda', 'victimizer', 'killingType', 'happenedOn',
      'shortDescription', 'evidence', 'remark', 'description', 'createdAt', 'files',
    ];
    const names = CATEGORIES.massacres.fields.map((f) => f.name);
    expect(names.filter((name) => contract.includes(name))).toEqual(contract);
    // Issue 39: coordinates beside the place, the ACLED cross-reference, the cited sources.
    expect(names.filter((name) => !contract.includes(name))).toEqual(['latitude', 'longitude', 'geoPrecision', 'acledEventId', 'sources']);
  });
});

describe('generated input schemas', () => {
  const massacre = recordInputSchema(CATEGORIES.massacres);

  it('accepts multipart strings and converts them', () => {
    const out = massacre.parse({
      title: ' A title ', description: 'text', quantity: '12', happenedOn: '2021-01-05T10:20:30',
      evidence: 'https://a.example/x, https://b.example/y', unknownField: 'dropped',
    });
    expect(out).toMatchObject({ title: 'A title', quantity: 12, evidence: 'https://a.example/x, https://b.example/y' });
    expect((out.happenedOn as Date).toISOString()).toBe('2021-01-05T10:20:30.000Z');
    expect(out).not.toHaveProperty('unknownField');
  });

  it('gives one message per bad field', () => {
    const result = massacre.safeParse({
      title: '', description: 'x'.repeat(60_000), quantity: '-1', happenedOn: '2021-02-30T10:00:00',
      evidence: 'javascript:alert(1)',
    });
    expect(result.success).toBe(false);
    const errors = fieldErrors(result.error!);
    expect(Object.keys(errors).sort()).toEqual(['description', 'evidence', 'happenedOn', 'quantity', 'title']);
    expect(errors.title).toBe('This field is required');
    expect(errors.quantity).toBe('Must be zero or more');
  });

  it('lets an edit leave fields out but not blank a required one', () => {
    const edit = recordInputSchema(CATEGORIES.massacres, { partial: true });
    expect(edit.parse({ remark: 'new' })).toEqual({ remark: 'new' });
    expect(edit.parse({ remark: '' })).toEqual({ remark: null });
    expect(fieldErrors(edit.safeParse({ title: '' }).error!)).toEqual({ title: 'This field is required' });
  });

  it('refuses links that are not http(s)', () => {
    const link = recordInputSchema(CATEGORIES.links);
    expect(fieldErrors(link.safeParse({ title: 't', description: 'd', linkURL: 'ftp://x.org' }).error!)).toHaveProperty('linkURL');
  });

  it('parses dates with and without zones and refuses impossible ones', () => {
    expect(parseDateTime('2021-01-05T10:20:30+03:00')?.toISOString()).toBe('2021-01-05T07:20:30.000Z');
    expect(parseDateTime('2021-01-05')?.toISOString()).toBe('2021-01-05T00:00:00.000Z');
    expect(parseDateTime('2021-13-01T00:00:00')).toBeNull();
    expect(parseDateTime('yesterday')).toBeNull();
  });
});

describe('spec constants', () => {
  it('shows a title heading only under five words', () => {
    expect(showsTitleHeading('Victims (12)')).toBe(true);
    expect(showsTitleHeading('one two three four five')).toBe(false);
  });
  it('uses the placeholder when imageUrl length is 1 or less', () => {
    expect(usesImagePlaceholder('')).toBe(true);
    expect(usesImagePlaceholder('x')).toBe(true);
    expect(usesImagePlaceholder('/m.jpg')).toBe(false);
  });

  it('places records in Ethiopia where a place applies, from the controlled list of regions', () => {
    const placed = CATEGORY_LIST.filter(hasPlace).map((c) => c.slug);
    expect(placed).toEqual(['victims', 'massacres', 'displacements', 'orphans', 'missings', 'events']);
    const region = fieldSchema(CATEGORIES.victims.fields.find((f) => f.name === 'region')!);
    expect(region.safeParse('amhara').success).toBe(true);
    expect(region.safeParse('Amhara').success).toBe(false);
    expect(region.safeParse('atlantis').success).toBe(false);
    expect(new Set(REGIONS.map((r) => r.code)).size).toBe(REGIONS.length);
    for (const r of REGIONS) expect(r.am).toMatch(/^[\u1200-\u137F ]+$/);
  });
});
