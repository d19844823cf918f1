import { createHash } from 'node:crypto';
import { asc, count, max } from 'drizzle-orm';
import type { Db } from '../../db';
import { campaignDefaults, representatives } from '../../db/schema';
import { CAMPAIGN_COUNTRIES, COUNTRY_CODES } from './directory';
import { fillSiteUrl } from './letters';
import { representativeDto } from './representatives';

const byName = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' });

/** The public directory (countries, provinces, representatives, default letters) as JSON with its ETag. */
export class DirectoryView {
  private cached: { version: string; etag: string; body: string } | null = null;

  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
  ) {}

  /** Rebuilt only when a representative or a default letter changed (their counts and newest update times). */
  async current() {
    const [[reps], [defaults]] = await Promise.all([
      this.db.select({ n: count(), at: max(representatives.updatedAt) }).from(representatives),
      this.db.select({ n: count(), at: max(campaignDefaults.updatedAt) }).from(campaignDefaults),
    ]);
    const version = JSON.stringify([reps, defaults, this.publicUrl]);
    if (this.cached?.version === version) return this.cached;
    const [rows, letters] = await Promise.all([
      this.db.select().from(representatives).orderBy(asc(representatives.country), asc(representatives.province), asc(representatives.district)),
      this.db.select().from(campaignDefaults),
    ]);
    const countries = COUNTRY_CODES.map((code) => {
      const provinces = new Map<string, ReturnType<typeof representativeDto>[]>();
      for (const row of rows.filter((r) => r.country === code)) {
        const list = provinces.get(row.province) ?? [];
        list.push(representativeDto(row));
        provinces.set(row.province, list);
      }
      const letter = letters.find((l) => l.country === code);
      return {
        code,
        name: CAMPAIGN_COUNTRIES[code],
        defaultMessage: letter ? fillSiteUrl(letter.message, this.publicUrl) : '',
        provinces: [...provinces.entries()]
          .sort(([a], [b]) => byName(a, b))
          .map(([name, list]) => ({ name, representatives: list.sort((a, b) => byName(a.district, b.district)) })),
      };
    });
    const body = JSON.stringify(countries);
    this.cached = { version, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    return this.cached;
  }
}
