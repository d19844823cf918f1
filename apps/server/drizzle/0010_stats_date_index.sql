-- The days of a partial month at either end of a date filter are counted live over the records (modules/statistics/
-- queries.ts). This index holds every column that count reads, so it is answered from the index alone (an index-only
-- scan) instead of one heap page per record: at a million records a month's records lie on thousands of pages.
CREATE INDEX "records_stats_date_idx" ON "records" USING btree ("search_date")
  INCLUDE ("category", "region", "victimizer", "killing_type", "quantity", "approved", "public")
  WHERE "deleted_at" IS NULL;
