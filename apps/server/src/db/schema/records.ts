import { sql } from 'drizzle-orm';
import type { DataFieldName, DeclaredDataField, Source } from '@app/shared';
import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Every category's records in one table: common columns plus the category-specific ones of the registry
 * (a test checks that every registry data field has its column). One table lets the /images gallery, news, search
 * and the trash read one place.
 */
export const records = pgTable(
  'records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    category: text('category').notNull(),
    title: text('title').notNull(),
    subtitle: text('subtitle'),
    description: text('description').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    userId: uuid('user_id'),
    approved: boolean('approved').notNull().default(false),
    approvedBy: uuid('approved_by'),
    approvedAt: timestamp('approved_at', { withTimezone: true, mode: 'date' }),
    public: boolean('public').notNull().default(true),
    graphic: boolean('graphic').notNull().default(false),
    sample: boolean('sample').notNull().default(false),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    deletedBy: uuid('deleted_by'),
    /**
     * A person record merged into another (the same person recorded twice): it is in the trash, and its URL and API
     * answer point to the record it was merged into (modules/duplicates).
     */
    mergedInto: uuid('merged_into'),
    // Category-specific fields (registry data fields).
    fullName: text('full_name'),
    location: text('location'),
    // Where in Ethiopia: a code of the shared region list, and zone and woreda as written.
    region: text('region'),
    zone: text('zone'),
    woreda: text('woreda'),
    victimizer: text('victimizer'),
    killingType: text('killing_type'),
    happenedOn: timestamp('happened_on', { withTimezone: true, mode: 'date' }),
    remark: text('remark'),
    quantity: integer('quantity'),
    caseNum: text('case_num'),
    shortDescription: text('short_description'),
    evidence: text('evidence'),
    videoUrl: text('video_url'),
    linkURL: text('link_url'),
    country: text('country'),
    city: text('city'),
    streetName: text('street_name'),
    startAt: timestamp('start_at', { withTimezone: true, mode: 'date' }),
    endAt: timestamp('end_at', { withTimezone: true, mode: 'date' }),
    // The massacre or event a person belongs to. No foreign key: a purged incident leaves its people's link in place
    // (shown as unavailable), as a trashed one does.
    incidentId: uuid('incident_id'),
    sources: jsonb('sources').$type<Source[]>().notNull().default(sql`'[]'::jsonb`),
    // Stored as entered; readers who may not edit the record see them rounded to geoPrecision (shared geo.ts).
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    geoPrecision: text('geo_precision'),
    acledEventId: text('acled_event_id'),
  },
  (t) => [
    // Lists: newest first within a category, live records only; the public variant serves anonymous readers.
    index('records_category_list_idx').on(t.category, t.createdAt.desc(), t.id.desc()).where(sql`${t.deletedAt} is null`),
    index('records_category_public_list_idx')
      .on(t.category, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null and ${t.public}`),
    // News: newest of every category.
    index('records_news_idx').on(t.createdAt.desc(), t.id.desc()).where(sql`${t.deletedAt} is null`),
    index('records_user_idx').on(t.userId),
    // Facets and statistics by place; zone and woreda are matched as written (search by place name).
    index('records_region_idx').on(t.region).where(sql`${t.deletedAt} is null`),
    index('records_zone_idx').on(t.zone).where(sql`${t.deletedAt} is null and ${t.zone} is not null`),
    index('records_woreda_idx').on(t.woreda).where(sql`${t.deletedAt} is null and ${t.woreda} is not null`),
    // An incident's people, and the named people counted per incident.
    index('records_incident_idx').on(t.incidentId, t.category).where(sql`${t.deletedAt} is null and ${t.incidentId} is not null`),
    // The incident picker's suggestions (modules/incident-suggest): a case number found by its first characters.
    index('records_case_num_prefix_idx')
      .using('btree', sql`lower(${t.caseNum}) text_pattern_ops`)
      .where(sql`${t.deletedAt} is null and ${t.caseNum} is not null`),
    index('records_trash_idx').on(t.deletedAt.desc()).where(sql`${t.deletedAt} is not null`),
  ],
);

export type RecordRow = typeof records.$inferSelect;
export type NewRecordRow = typeof records.$inferInsert;

/**
 * Live records per category, kept exact by a trigger on `records` (migration record_counts): list totals read one
 * row instead of counting, so they stay cheap at millions of records. `visibility` is 'all' (signed-in readers) or
 * 'public' (anonymous readers).
 */
export const recordCounts = countsTable('record_counts');

/** A table of trigger-kept counts: `n` per category and visibility ('all' or 'public'). */
export function countsTable<Name extends string>(name: Name) {
  return pgTable(
    name,
    {
      category: text('category').notNull(),
      visibility: text('visibility').notNull(),
      n: bigint('n', { mode: 'number' }).notNull().default(0),
    },
    (t) => [primaryKey({ columns: [t.category, t.visibility] })],
  );
}

/** The column type a field kind is stored as (dates as instants, quantities as whole numbers, the rest as text). */
type StoredAs<Kind> = Kind extends 'date' | 'datetime'
  ? Date
  : Kind extends 'quantity' | 'coordinate'
    ? number
    : Kind extends 'sources'
      ? readonly object[]
      : string;

/**
 * Registry data fields with no column, or with a column of another type than their kind stores. The declaration below
 * fails to compile, naming them, when the registry and this table disagree.
 */
type UnstoredFields = {
  [Field in DeclaredDataField as Field['name']]: Field['name'] extends keyof RecordRow
    ? NonNullable<RecordRow[Field['name']]> extends StoredAs<Field['kind']>
      ? never
      : Field['name']
    : Field['name'];
}[DataFieldName];
const everyRegistryFieldHasItsColumn: [UnstoredFields] extends [never] ? true : UnstoredFields = true;
void everyRegistryFieldHasItsColumn;

/**
 * Live records counted by what the statistics filter and group on, kept exact by a trigger on `records` (migration
 * stats_triggers), so the statistics of a million records read a few thousand rows instead of a million. A value
 * that was not recorded is '' (a primary key column cannot be null): region '' is the "unknown region" bucket, month
 * '' a record without a date. `month` is 'YYYY-MM' (UTC) of the incident date, or of an event's start. `quantity`
 * sums the records' quantity (people killed, for massacres).
 */
export const recordStats = pgTable(
  'record_stats',
  {
    category: text('category').notNull(),
    visibility: text('visibility').notNull(),
    region: text('region').notNull().default(''),
    month: text('month').notNull().default(''),
    victimizer: text('victimizer').notNull().default(''),
    killingType: text('killing_type').notNull().default(''),
    confirmed: boolean('confirmed').notNull(),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
    quantity: bigint('quantity', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ name: 'record_stats_pk', columns: [t.category, t.visibility, t.region, t.month, t.victimizer, t.killingType, t.confirmed] })],
);
