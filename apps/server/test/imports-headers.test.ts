import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATEGORY_LIST, FIELD_LABELS } from '@app/shared';
import { INCIDENT_COLUMNS, PEOPLE_COLUMNS } from '../src/modules/export/field-columns';
import { EXPORT_COLUMN_FIELDS, SOURCE_KEY_COLUMNS } from '../src/modules/imports/headers';

/** What the import's header matcher knows stays what the locale files and the exports say. */
describe('import header vocabulary', () => {
  const locale = (language: string) => JSON.parse(readFileSync(new URL(`../../web/src/locales/${language}.json`, import.meta.url), 'utf8')) as Record<string, Record<string, string>>;

  it("has every registry field's label as the locale files write it", () => {
    const en = locale('en');
    const am = locale('am');
    const keys = new Set(CATEGORY_LIST.flatMap((c) => c.fields.map((f) => f.label)));
    for (const key of keys) {
      const [, name] = key.split('.');
      expect(FIELD_LABELS[key], key).toEqual({ en: en.field![name!], am: am.field![name!] });
    }
  });

  it('reads every column of people.csv and incidents.csv, or says why not', () => {
    // Written anew by the importing site (its own ids, addresses, counts and times) or implied by the category.
    const derived = ['url', 'updated_at', 'category', 'confirmed', 'named_people', 'source_count', 'time_precision', 'event_type', 'sub_event_type', 'iso'];
    for (const column of [...PEOPLE_COLUMNS, ...INCIDENT_COLUMNS]) {
      const known = column.name in EXPORT_COLUMN_FIELDS || (SOURCE_KEY_COLUMNS as readonly string[]).includes(column.name) || derived.includes(column.name);
      expect(known, column.name).toBe(true);
    }
  });
});
