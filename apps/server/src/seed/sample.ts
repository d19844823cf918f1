import { randomBytes } from 'node:crypto';
import { inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { CATEGORY_LIST, REGION_CODES, SAMPLE_LABEL, dataFields, incidentField, isDateKind, type CategoryDef, type FieldDef } from '@app/shared';
import type { Db } from '../db';
import { records } from '../db/schema';
import type { AuditService } from '../services/audit';
import { findAccount, upsertSuper } from '../services/accounts';
import { attachSampleImages } from '../modules/media/sample-images';
import type { MediaService } from '../modules/media/service';

const SAMPLE_SUPER_EMAIL = 'sample-super@example.org';
export const SAMPLE_PER_CATEGORY = 3;
const SAMPLE_DUPLICATE_NAMES = ['ናሙና ሙከራ', 'Namuna Mukera'];

/** What the seeding uses: the database, where the sample pictures go, the audit log, and a log for a failed picture. */
interface SampleSeedServices {
  db: Db;
  media: MediaService;
  audit: AuditService;
  log: Pick<FastifyBaseLogger, 'warn'>;
}

type RegionCode = (typeof REGION_CODES)[number];

/** Spread over the regions, so a fresh site's map and statistics show something (the places stay fictional). */
function sampleRegion(category: CategoryDef, n: number): RegionCode {
  return REGION_CODES[(CATEGORY_LIST.indexOf(category) * SAMPLE_PER_CATEGORY + n) % REGION_CODES.length]!;
}

/**
 * A point (latitude, longitude) well inside each region, no named place: where a sample incident in that region is put
 * on the map (the public sees it rounded to its precision, which may move it by up to half a degree).
 */
const SAMPLE_POINTS: Record<RegionCode, [number, number]> = {
  afar: [12.1, 40.9],
  amhara: [11.4, 38.1],
  'benishangul-gumuz': [10.6, 35.4],
  'central-ethiopia': [7.9, 38.1],
  gambela: [7.9, 34.6],
  harari: [9.3, 42.1],
  oromia: [8.4, 39.6],
  sidama: [6.8, 38.6],
  somali: [7.1, 43.6],
  'south-ethiopia': [5.9, 37.1],
  'south-west-ethiopia': [7.1, 35.9],
  tigray: [13.8, 39.1],
  'addis-ababa': [9.0, 38.8],
  'dire-dawa': [9.6, 41.9],
};

/** Sample values per field kind: plainly invented, labelled, naming no real person or place as a victim. */
function sampleValue(category: CategoryDef, field: FieldDef, n: number): unknown {
  const day = new Date(Date.UTC(2020, n, 10 + n, 8, 30));
  switch (field.name) {
    case 'title':
      return `Sample ${category.slug.replace(/s$/, '')} ${n + 1}`;
    case 'subtitle':
      return SAMPLE_LABEL;
    case 'description':
      return `**${SAMPLE_LABEL}.** This entry shows how a ${category.slug.replace(/s$/, '')} record looks. It describes no real event, person or place.\n\nEditors replace sample records with documented entries and their sources.`;
    case 'fullName':
      // The first two sample victims are one made-up person recorded twice, in Ge'ez and in Latin letters ("ናሙና ሙከራ":
      // "sample test"), so a fresh site shows the duplicate check and the admins' possible duplicates.
      if (category.slug === 'victims' && n < 2) return SAMPLE_DUPLICATE_NAMES[n];
      return `Sample Person ${String.fromCharCode(65 + n)}`;
    case 'location':
      return 'Sample Town (fictional)';
    case 'victimizer':
      return 'Sample perpetrator (fictional)';
    case 'killingType':
      return 'Sample type';
    case 'caseNum':
      return `SAMPLE-${String(n + 1).padStart(3, '0')}`;
    case 'shortDescription':
      return `${SAMPLE_LABEL}: short description ${n + 1}.`;
    case 'evidence':
      return 'https://example.org/sample-evidence-1, https://example.org/sample-evidence-2';
    case 'remark':
      return 'sample remark';
    case 'linkURL':
      return 'https://example.org/sample-article';
    case 'country':
      return 'Sampleland';
    case 'city':
      return 'Sample City';
    case 'streetName':
      return 'Sample Street 1';
    case 'sources':
      return sampleSources(category, n);
    case 'geoPrecision':
      return (['town', 'woreda', 'region'] as const)[n % 3];
    // A point inside the sample's own region, so the map's point and the listed region agree.
    case 'latitude':
      return SAMPLE_POINTS[sampleRegion(category, n)][0];
    case 'longitude':
      return SAMPLE_POINTS[sampleRegion(category, n)][1];
  }
  if (field.kind === 'quantity') return (n + 1) * 10;
  if (field.kind === 'region') return sampleRegion(category, n);
  if (isDateKind(field.kind)) return day;
  return null;
}

/** A sample's sources: a made-up report, and for the first victim a withheld testimony (issue 39 item 2). */
function sampleSources(category: CategoryDef, n: number) {
  const report = { kind: 'media', title: `${SAMPLE_LABEL}: report ${n + 1} (fictional)`, publisher: 'Sample Publisher (fictional)', date: '2021-01', url: 'https://example.org/sample-source', language: 'en' };
  if (category.slug !== 'victims' || n !== 0) return [report];
  return [{ kind: 'witness', title: `${SAMPLE_LABEL}: witness testimony (fictional)`, note: 'Sample note visible to editors only.', withheld: true }, report];
}

/**
 * On first start with an empty database (outside production), inserts a few labelled sample records per category and
 * a sample super account whose random password is printed once.
 */
export async function seedSampleContent(app: SampleSeedServices): Promise<{ seeded: boolean; password?: string }> {
  const [{ n } = { n: 0 }] = await app.db.select({ n: sql<number>`count(*)::int` }).from(records);
  if (Number(n) > 0) return { seeded: false };

  const password = randomBytes(12).toString('base64url');
  const existing = await findAccount(app.db, SAMPLE_SUPER_EMAIL);
  const superId = existing?.id ?? (await upsertSuper(app.db, SAMPLE_SUPER_EMAIL, password)).id;
  const rows = CATEGORY_LIST.flatMap((category) =>
    Array.from({ length: SAMPLE_PER_CATEGORY }, (_, i) => {
      const values: Record<string, unknown> = {};
      for (const field of dataFields(category)) {
        const v = sampleValue(category, field, i);
        if (v !== null && v !== undefined) values[field.name] = v;
      }
      return {
        ...values,
        category: category.slug,
        title: String(values.title),
        description: String(values.description),
        createdAt: new Date(Date.UTC(2021, 0, 5 + i, 12)),
        userId: superId,
        approved: i === 0,
        sample: true,
      } as typeof records.$inferInsert;
    }),
  );
  const inserted = await app.db.insert(records).values(rows).returning({ id: records.id, category: records.category });
  // The first two people of each linking category belong to the first sample massacre (issue 39 item 1).
  const massacre = inserted.find((row) => row.category === 'massacres');
  const people = CATEGORY_LIST.filter((c) => incidentField(c)).flatMap((c) => inserted.filter((row) => row.category === c.slug).slice(0, 2));
  if (massacre && people.length) await app.db.update(records).set({ incidentId: massacre.id }).where(inArray(records.id, people.map((p) => p.id)));
  try {
    await attachSampleImages(app.media, inserted, superId);
  } catch (err) {
    // Pictures are a nicety: sample records without them are still useful.
    app.log.warn({ err }, 'sample images could not be made');
  }
  await app.audit.append({ actor: { id: superId, role: 'super' }, action: 'seed', subject: `sample:${rows.length}` });
  const banner = [
    '',
    '================ Sample content =================',
    `Inserted ${rows.length} sample records ("${SAMPLE_LABEL}").`,
    ...(existing
      ? []
      : [`Sample super account: ${SAMPLE_SUPER_EMAIL}`, `Password (shown once): ${password}`]),
    '=================================================',
    '',
  ].join('\n');
  console.log(banner);
  return { seeded: true, password: existing ? undefined : password };
}
