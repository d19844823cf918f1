import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getTableColumns } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CATEGORY_LIST, searchFields, statisticsFields } from '@app/shared';
import { changedParts } from '../src/db/registry-diff';
import { registryFields, registryParts, type RegistryFields } from '../src/db/registry-sql';
import { recordStats } from '../src/db/schema';
import { MIGRATIONS_DIR } from '../src/locations';

/** The SQL of every migration, in the order they apply. */
function migrations(): string[] {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  return journal.entries.map((entry) => readFileSync(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), 'utf8'));
}

/** The migrations as they would be once the registry's current SQL were applied. */
const migrated = () => [...migrations(), ...registryParts().map((part) => part.apply)];
const reasonsOf = (fields: RegistryFields) => changedParts(migrated(), fields).flatMap((change) => change.reasons);

describe('SQL generated from the category registry', () => {
  it('the latest migrations state what the registry generates (else: npm run db:generate)', () => {
    const changes = changedParts(migrations());
    expect(changes.flatMap((change) => change.reasons)).toEqual([]);
  });

  it('dates every migration after the one before: drizzle applies to an existing database only those dated after its last', () => {
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
    const outOfOrder = journal.entries.filter((entry, i) => i > 0 && entry.when <= journal.entries[i - 1]!.when).map((entry) => entry.tag);
    expect(outOfOrder).toEqual([]);
  });

  it('names a searchable field that no migration indexes', () => {
    const fields = registryFields();
    const reasons = reasonsOf({ ...fields, search: [...fields.search, { name: 'country', weight: 'C' }] });
    expect(reasons).toEqual([
      `field "country" (searchable, weight C) is not in the latest migration's search_vector`,
      // Its partial indexes go with the column when it is made again.
      'records_search_sample_idx is rebuilt on the new search_vector',
    ]);
  });

  it('names a field whose weight changed, and one no longer searchable', () => {
    const fields = registryFields();
    const search = fields.search.filter((f) => f.name !== 'remark').map((f) => (f.name === 'zone' ? { ...f, weight: 'A' as const } : f));
    const reasons = reasonsOf({ ...fields, search });
    expect(reasons).toContain(`field "zone" has weight A in the registry and B in the latest migration's search_vector`);
    expect(reasons).toContain(`field "zone" (a name matched by similarity (weight A)) is not in the latest migration's search_names`);
    expect(reasons).toContain(`field "remark" is in the latest migration's search_vector, not in the registry's`);
  });

  it('names a new statistics dimension in the trigger, the filter terms and the date index', () => {
    const fields = registryFields();
    const reasons = reasonsOf({ ...fields, dimensions: [...fields.dimensions, 'country'] });
    expect(reasons).toEqual([
      `field "country" (a filter term (statistics dimension)) is not in the latest migration's search_vector`,
      'records_search_sample_idx is rebuilt on the new search_vector',
      `field "country" (a statistics dimension) is not in the latest migration's record_stats_statement`,
      `field "country" (a column of the statistics date index) is not in the latest migration's records_stats_date_idx`,
      `field "country" (a column of the search's newest-first index) is not in the latest migration's records_search_newest_idx`,
    ]);
  });

  it('rebuilds the search columns when the stemmer changes', () => {
    const stemmer = registryParts().find((part) => part.name === 'search_stem')!;
    const older = migrations().map((sql) => sql.replace(stemmer.text, stemmer.text.replace("'ም'", "'ስ'")));
    const names = changedParts(older).map((change) => change.part.name);
    expect(names).toEqual(['search_stem', 'search_vector', 'records_search_sample_idx']);
  });

  it('every statistics dimension has its column in record_stats', () => {
    const columns = Object.keys(getTableColumns(recordStats));
    for (const field of statisticsFields('dimension')) expect(columns, `record_stats.${field}`).toContain(field);
  });

  it('a category dates its records with at most one field, and declares fields alike across categories', () => {
    for (const category of CATEGORY_LIST) {
      const dates = category.fields.filter((f) => f.statistics === 'incidentDate').map((f) => f.name);
      expect(dates.length, `${category.slug}: ${dates.join(', ')}`).toBeLessThanOrEqual(1);
    }
    // searchFields() throws, naming the field, when two categories give one field different weights.
    expect(searchFields().length).toBeGreaterThan(5);
  });
});
