import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { call } from './helpers';
import { useTestApp } from './fixtures/app';
import { createTestRecord } from './records-helpers';

/**
 * datapackage.json against the official Frictionless profiles it declares (issue 52 item 5; the profiles' JSON Schemas
 * are in fixtures/frictionless, with where they came from), and the CSVs it describes against it: their headers, the
 * types of their values, their primary keys and the foreign key people.incident_id -> incidents.event_id, for an
 * anonymous reader and a signed-in one (issue 52 item 6). Test data only.
 */
const PROFILES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/frictionless');
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
// A hint for form editors in the profiles, not a constraint.
ajv.addFormat('textarea', true);
const profile = (name: string) => ajv.compile(JSON.parse(readFileSync(path.join(PROFILES, `${name}.json`), 'utf8')) as object);

interface Field {
  name: string;
  type: string;
  trueValues?: string[];
  falseValues?: string[];
  constraints?: { enum?: string[] };
}
interface Resource {
  name: string;
  path: string;
  profile?: string;
  format?: string;
  schema?: {
    fields: Field[];
    primaryKey?: string | string[];
    foreignKeys?: { fields: string | string[]; reference: { resource: string; fields: string | string[] } }[];
    missingValues?: string[];
  };
}
interface Package {
  profile: string;
  resources: Resource[];
}

const list = (value: string | string[]) => (Array.isArray(value) ? value : [value]);

/** Whether a CSV cell is a value of the Table Schema field's type (the forms this site writes). */
function isOfType(field: Field, cell: string): boolean {
  switch (field.type) {
    case 'integer':
      return /^-?\d+$/.test(cell);
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(cell);
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(cell) && !Number.isNaN(Date.parse(cell));
    case 'datetime':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(cell);
    case 'boolean':
      return [...(field.trueValues ?? ['true', 'True', 'TRUE', '1']), ...(field.falseValues ?? ['false', 'False', 'FALSE', '0'])].includes(cell);
    default:
      return true;
  }
}

describe('datapackage.json and the files it describes', () => {
  const { t, editor, admin } = useTestApp({ editor: 'contributor', admin: 'admin' });
  let ip = 0;

  const create = (category: string, fields: Record<string, unknown>) => createTestRecord(t.app, editor.auth, category, fields);

  beforeAll(async () => {
    const massacre = await create('massacres', { title: 'Test massacre (test data)', quantity: 4, region: 'amhara', happenedOn: '2021-03-04T00:00:00', latitude: 11.5, longitude: 38.25, geoPrecision: 'town' });
    const hidden = await create('massacres', { title: 'Test private massacre (test data)' });
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${hidden._id}/access`, headers: admin.auth })).status).toBe(200);
    const trashed = await create('massacres', { title: 'Test trashed massacre (test data)' });
    await create('events', { title: 'Test event (test data)', startAt: '2022-01-02T10:00:00' });
    for (const incident of [massacre, hidden, trashed]) await create('victims', { title: `Test victim of ${incident.title}`, fullName: 'Test Person', incidentId: incident._id, happenedOn: '2021-03-04T00:00:00' });
    await create('displacements', { title: 'Test displacement (test data)', quantity: 30 });
    expect((await call(t.app, { method: 'DELETE', url: `${API_BASE}/massacres/${trashed._id}/delete`, headers: admin.auth })).status).toBeLessThan(300);
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers, remoteAddress: `198.51.100.${++ip}` });
  const dataPackage = async () => JSON.parse((await get(`${API_BASE}/datapackage.json`)).body) as Package;
  /** A resource's file as served, by the path the package gives. */
  async function rowsOf(resource: Resource, headers: Record<string, string> = {}): Promise<Record<string, string>[]> {
    const res = await get(new URL(resource.path).pathname, headers);
    expect(res.statusCode).toBe(200);
    return parse(res.body, { columns: true, bom: true }) as Record<string, string>[];
  }

  it('is valid against the profile it declares, and each resource against its own', async () => {
    const pkg = await dataPackage();
    const validatePackage = profile(pkg.profile);
    expect(validatePackage(pkg), `${pkg.profile}: ${ajv.errorsText(validatePackage.errors)}`).toBe(true);
    for (const resource of pkg.resources) {
      const validateResource = profile(resource.profile ?? 'data-resource');
      expect(validateResource(resource), `${resource.name} (${resource.profile}): ${ajv.errorsText(validateResource.errors)}`).toBe(true);
    }
    // Every CSV is described by a table schema; the NDJSON is a resource of its own format.
    expect(pkg.resources.filter((r) => r.format === 'csv').every((r) => r.profile === 'tabular-data-resource' && r.schema)).toBe(true);
    expect(pkg.resources.find((r) => r.format === 'ndjson')).toBeDefined();
  });

  it('each CSV has the columns its table schema declares, with values of their types and allowed values', async () => {
    for (const resource of (await dataPackage()).resources.filter((r) => r.schema)) {
      const rows = await rowsOf(resource, editor.auth);
      expect(rows.length, resource.name).toBeGreaterThan(0);
      const { fields, missingValues = [''] } = resource.schema!;
      expect(Object.keys(rows[0]!), resource.name).toEqual(fields.map((f) => f.name));
      for (const row of rows) {
        for (const field of fields) {
          const cell = row[field.name]!;
          if (missingValues.includes(cell)) continue;
          expect(isOfType(field, cell), `${resource.name}.${field.name} (${field.type}): ${JSON.stringify(cell)}`).toBe(true);
          if (field.constraints?.enum) expect(field.constraints.enum, `${resource.name}.${field.name}`).toContain(cell);
        }
      }
    }
  });

  it.each([
    ['an anonymous reader', false],
    ['a signed-in reader (a victim of a trashed massacre among them)', true],
  ])('the files %s gets satisfy the primary and foreign keys declared', async (_who, signedIn) => {
    const pkg = await dataPackage();
    const headers = signedIn ? editor.auth : {};
    const files = new Map<string, Record<string, string>[]>();
    for (const resource of pkg.resources.filter((r) => r.schema)) files.set(resource.name, await rowsOf(resource, headers));
    let checkedReferences = 0;
    for (const resource of pkg.resources.filter((r) => r.schema)) {
      const rows = files.get(resource.name)!;
      const { primaryKey, foreignKeys = [], missingValues = [''] } = resource.schema!;
      if (primaryKey) {
        const keys = rows.map((row) => list(primaryKey).map((f) => row[f]).join('\u0000'));
        expect(new Set(keys).size, `${resource.name}: primary key ${String(primaryKey)} unique`).toBe(keys.length);
        expect(keys.every((key) => !missingValues.includes(key)), `${resource.name}: primary key never empty`).toBe(true);
      }
      for (const key of foreignKeys) {
        const target = files.get(key.reference.resource)!;
        const known = new Set(target.map((row) => list(key.reference.fields).map((f) => row[f]).join('\u0000')));
        for (const row of rows) {
          const value = list(key.fields).map((f) => row[f]).join('\u0000');
          if (missingValues.includes(value)) continue;
          checkedReferences++;
          expect(known.has(value), `${resource.name}.${String(key.fields)} = ${value} is not in ${key.reference.resource}`).toBe(true);
        }
      }
    }
    // The anonymous reader sees one public incident with its victim; the signed-in one also the private one.
    expect(checkedReferences).toBe(signedIn ? 2 : 1);
  });
});
