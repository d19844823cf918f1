import { readFileSync } from 'node:fs';
import { eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db';
import { campaignMessages, representatives } from '../../db/schema';
import type { AuditService } from '../../services/audit';
import { SHIPPED_DIRECTORY_FILE } from '../../locations';

/** The directory shipped with the product (see directory/PROVENANCE.md). */
export { SHIPPED_DIRECTORY_FILE };

/** The countries the campaign writes to, in form order. */
export const CAMPAIGN_COUNTRIES = { CA: 'Canada', AU: 'Australia' } as const;
export type CountryCode = keyof typeof CAMPAIGN_COUNTRIES;
export const COUNTRY_CODES = Object.keys(CAMPAIGN_COUNTRIES) as CountryCode[];

const representativeEntry = z.strictObject({
  name: z.string().trim().min(1).max(200),
  email: z.email().max(254).nullable(),
  district: z.string().trim().min(1).max(200),
  party: z.string().trim().min(1).max(200).nullable(),
});

export const directoryFileSchema = z.object({
  source: z.array(z.string()).optional(),
  countries: z
    .array(
      z.object({
        code: z.enum(COUNTRY_CODES as [CountryCode, ...CountryCode[]]),
        name: z.string().min(1),
        provinces: z.array(z.object({ name: z.string().trim().min(1).max(200), representatives: z.array(representativeEntry) })),
      }),
    )
    .min(1),
});
export type DirectoryFile = z.infer<typeof directoryFileSchema>;

/** Reads and validates a directory file; a malformed file throws before anything is written. */
export function readDirectoryFile(file = SHIPPED_DIRECTORY_FILE): DirectoryFile {
  const parsed = directoryFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  for (const country of parsed.countries) {
    const seen = new Set<string>();
    for (const province of country.provinces) {
      for (const rep of province.representatives) {
        const key = `${province.name}\u0000${rep.district}`;
        if (seen.has(key)) throw new Error(`${country.code}: district "${rep.district}" appears twice in ${province.name}`);
        seen.add(key);
      }
    }
  }
  return parsed;
}

interface ImportResult {
  inserted: number;
  updated: number;
  unchanged: number;
  /** Rows an admin corrected, whose e-mail and reachability were left as the admin set them. */
  keptCorrected: number;
  /** Corrected rows replaced by the file (--force, or the seat has a new member). */
  overwrittenCorrections: number;
  /** Rows no longer in the file: removed, or marked unreachable when letters refer to them. */
  retired: number;
}

export const RETIRED_NOTE = 'No longer listed in the directory';

/**
 * Upserts the file into `representatives` by (country, province, district). An admin's correction (e-mail, unreachable,
 * note) survives unless `force`, as long as the seat still has the same member; a new member replaces it.
 */
export async function importDirectory(
  db: Db,
  audit: AuditService,
  data: DirectoryFile,
  options: { force?: boolean } = {},
): Promise<ImportResult> {
  const result: ImportResult = { inserted: 0, updated: 0, unchanged: 0, keptCorrected: 0, overwrittenCorrections: 0, retired: 0 };
  const countries = data.countries.map((c) => c.code);
  await db.transaction(async (tx) => {
    const existing = await tx.select().from(representatives).where(inArray(representatives.country, countries));
    const byKey = new Map(existing.map((r) => [`${r.country}\u0000${r.province}\u0000${r.district}`, r]));
    const now = new Date();
    const inserts: (typeof representatives.$inferInsert)[] = [];
    for (const country of data.countries) {
      for (const province of country.provinces) {
        for (const rep of province.representatives) {
          const key = `${country.code}\u0000${province.name}\u0000${rep.district}`;
          const row = byKey.get(key);
          byKey.delete(key);
          if (!row) {
            inserts.push({ country: country.code, province: province.name, district: rep.district, name: rep.name, party: rep.party, email: rep.email });
            continue;
          }
          const keepCorrection = row.correctedAt !== null && !options.force && row.name === rep.name;
          const next = keepCorrection
            ? { name: rep.name, party: rep.party, email: row.email, unreachable: row.unreachable, note: row.note, correctedAt: row.correctedAt }
            : { name: rep.name, party: rep.party, email: rep.email, unreachable: false, note: null, correctedAt: null };
          if (keepCorrection) result.keptCorrected++;
          else if (row.correctedAt !== null) result.overwrittenCorrections++;
          const same =
            row.name === next.name && row.party === next.party && row.email === next.email && row.unreachable === next.unreachable && row.note === next.note;
          if (same) {
            result.unchanged++;
            continue;
          }
          await tx.update(representatives).set({ ...next, updatedAt: now }).where(eq(representatives.id, row.id));
          result.updated++;
        }
      }
    }
    for (let i = 0; i < inserts.length; i += 500) {
      // Another process loading the same file at first start must not make this one fail.
      await tx.insert(representatives).values(inserts.slice(i, i + 500)).onConflictDoNothing();
    }
    result.inserted = inserts.length;

    // Seats that left the file: letters keep their representative, so referenced rows are only marked unreachable.
    for (const gone of byKey.values()) {
      const [ref] = await tx.select({ n: sql<number>`count(*)::int` }).from(campaignMessages).where(eq(campaignMessages.representativeId, gone.id));
      if (ref && ref.n > 0) {
        if (gone.unreachable && gone.note === RETIRED_NOTE) continue;
        await tx
          .update(representatives)
          .set({ unreachable: true, note: RETIRED_NOTE, updatedAt: now })
          .where(eq(representatives.id, gone.id));
      } else {
        await tx.delete(representatives).where(eq(representatives.id, gone.id));
      }
      result.retired++;
    }
    await audit.append(
      {
        actor: null,
        action: 'campaign.directory_imported',
        subject: 'campaign:directory',
        changes: { counts: { before: null, after: { ...result, force: Boolean(options.force) } } },
      },
      tx,
    );
  });
  return result;
}

/** Loads the shipped directory when the table is empty (first start). Returns whether it loaded. */
export async function loadDirectoryIfEmpty(db: Db, audit: AuditService): Promise<boolean> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(representatives);
  if ((row?.n ?? 0) > 0) return false;
  await importDirectory(db, audit, readDirectoryFile());
  return true;
}
