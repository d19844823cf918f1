import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { eq } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/db';
import { campaignMessages, representatives } from '../src/db/schema';
import { AuditService } from '../src/services/audit';
import { commands } from '../src/cli';
import { type DirectoryFile, loadDirectoryIfEmpty, readDirectoryFile, RETIRED_NOTE, SHIPPED_DIRECTORY_FILE } from '../src/modules/campaign/directory';

/** The shipped contact directory and the import command (upsert, admin corrections, retired seats). */

const shipped = JSON.parse(readFileSync(SHIPPED_DIRECTORY_FILE, 'utf8')) as DirectoryFile;
const reps = (code: string) => shipped.countries.find((c) => c.code === code)!.provinces.flatMap((p) => p.representatives);

describe('shipped contact directory', () => {
  it('holds the 343 Canadian MPs and 150 Australian members, every e-mail valid or null', () => {
    expect(reps('CA')).toHaveLength(343);
    expect(reps('AU')).toHaveLength(150);
    const email = z.email();
    for (const rep of [...reps('CA'), ...reps('AU')]) {
      if (rep.email !== null) expect(email.safeParse(rep.email).success, rep.email).toBe(true);
      expect(rep.name.trim()).not.toBe('');
      expect(rep.district.trim()).not.toBe('');
    }
    expect(reps('CA').filter((r) => r.email).length).toBe(338);
    expect(reps('AU').filter((r) => r.email).length).toBe(142);
    // The loader's own validation accepts it (unique districts per province, exact keys).
    expect(() => readDirectoryFile()).not.toThrow();
  });

  it('is an exact copy of the researched data and names its provenance', () => {
    const provenance = readFileSync(path.join(path.dirname(SHIPPED_DIRECTORY_FILE), 'PROVENANCE.md'), 'utf8');
    const digest = createHash('sha256').update(readFileSync(SHIPPED_DIRECTORY_FILE)).digest('hex');
    expect(provenance).toContain(digest);
    expect(provenance).toMatch(/No e-mail address was guessed/);
  });
});

describe('import-contacts', () => {
  let database: Database;
  let dir: string;
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});

  beforeAll(async () => {
    database = await openDatabase({});
    dir = mkdtempSync(path.join(os.tmpdir(), 'contacts-'));
  });
  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
    log.mockRestore();
    error.mockRestore();
  });

  const find = async (country: string, district: string) =>
    (await database.db.select().from(representatives).where(eq(representatives.district, district))).find((r) => r.country === country)!;

  function writeVariant(change: (data: DirectoryFile) => void): string {
    const data = structuredClone(shipped);
    change(data);
    const file = path.join(dir, `contacts-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(data));
    return file;
  }

  it('loads the shipped file into an empty table once', async () => {
    const audit = new AuditService(database.db);
    expect(await loadDirectoryIfEmpty(database.db, audit)).toBe(true);
    expect(await loadDirectoryIfEmpty(database.db, audit)).toBe(false);
    const [count] = await database.query<{ n: number }>('select count(*)::int as n from representatives');
    expect(count!.n).toBe(493);
  });

  it('upserts by country, province and district, keeping admin corrections unless --force', async () => {
    const ca = shipped.countries[0]!;
    const first = ca.provinces[0]!.representatives[0]!;
    const second = ca.provinces[0]!.representatives[1]!;
    // An admin corrected the first member's address.
    await database.db
      .update(representatives)
      .set({ email: 'corrected.office@parl.gc.ca', correctedAt: new Date() })
      .where(eq(representatives.district, first.district));

    const file = writeVariant((data) => {
      const province = data.countries[0]!.provinces[0]!;
      province.representatives[0]!.party = 'Test Party';
      province.representatives[1]!.email = 'updated.address@parl.gc.ca';
      province.representatives.push({ name: 'Sample New Member', email: null, district: 'Sample New Riding', party: null });
    });
    expect(await commands['import-contacts']!.run([file], database)).toBe(0);
    expect(log.mock.calls.at(-1)![0]).toMatch(/1 added, 2 updated, .* 1 kept, 0 overwritten/);
    const kept = await find('CA', first.district);
    expect(kept.email).toBe('corrected.office@parl.gc.ca');
    expect(kept.party).toBe('Test Party');
    expect((await find('CA', second.district)).email).toBe('updated.address@parl.gc.ca');
    expect((await find('CA', 'Sample New Riding')).name).toBe('Sample New Member');

    expect(await commands['import-contacts']!.run([file, '--force'], database)).toBe(0);
    const forced = await find('CA', first.district);
    expect(forced.email).toBe(first.email);
    expect(forced.correctedAt).toBeNull();
  });

  it('retires seats that left the file: removed, or kept unreachable when letters refer to them', async () => {
    const sample = await find('CA', 'Sample New Riding');
    const referenced = await find('AU', reps('AU')[0]!.district);
    await database.db.insert(campaignMessages).values({
      state: 'sent',
      representativeId: referenced.id,
      representativeName: referenced.name,
      country: 'AU',
      province: referenced.province,
      district: referenced.district,
      authorityEmail: referenced.email ?? 'x@example.test',
      message: 'Sample test letter',
      messageHash: 'h',
      expiresAt: new Date(),
    });
    const file = writeVariant((data) => {
      data.countries[1]!.provinces = data.countries[1]!.provinces.map((p) => ({
        ...p,
        representatives: p.representatives.filter((r) => r.district !== referenced.district),
      }));
    });
    expect(await commands['import-contacts']!.run([file], database)).toBe(0);
    expect((await database.db.select().from(representatives).where(eq(representatives.id, sample.id))).length).toBe(0);
    const retired = await find('AU', referenced.district);
    expect(retired.unreachable).toBe(true);
    expect(retired.note).toBe(RETIRED_NOTE);
  });

  it('refuses a malformed file without writing anything', async () => {
    const [before] = await database.query<{ n: number }>('select count(*)::int as n from representatives');
    const file = writeVariant((data) => {
      data.countries[0]!.provinces[0]!.representatives[0]!.email = 'not an address';
    });
    expect(await commands['import-contacts']!.run([file], database)).toBe(1);
    expect(error.mock.calls.at(-1)![0]).toMatch(/not a valid directory file/);
    expect(await commands['import-contacts']!.run([path.join(dir, 'missing.json')], database)).toBe(1);
    const [after] = await database.query<{ n: number }>('select count(*)::int as n from representatives');
    expect(after!.n).toBe(before!.n);
  });
});
