-- Keeps record_stats exact (see its declaration in src/db/schema/records.ts): every insert, delete, trash, restore
-- or change of a counted column of records moves its contribution from its old key to its new one. Statement-level
-- triggers with transition tables aggregate a bulk change in one step. An update that changes no counted column adds
-- and takes away the same amounts, and is left out (HAVING) so that it touches no row of record_stats. Rows are
-- written in key order so that two transactions lock them in the same order rather than deadlock.
-- The key expressions are the same in the three statements and in modules/statistics/queries.ts (live statistics).
CREATE OR REPLACE FUNCTION record_stats_statement() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO record_stats AS s (category, visibility, region, month, victimizer, killing_type, confirmed, n, quantity)
      SELECT k.category, v.visibility, k.region, k.month, k.victimizer, k.killing_type, k.confirmed, count(*), coalesce(sum(k.quantity), 0)
      FROM (
        SELECT r.category, coalesce(r.region, '') AS region,
          coalesce(to_char(coalesce(r.happened_on, r.start_at) AT TIME ZONE 'UTC', 'YYYY-MM'), '') AS month,
          left(coalesce(r.victimizer, ''), 300) AS victimizer, left(coalesce(r.killing_type, ''), 300) AS killing_type,
          r.approved AS confirmed, r.public, r.quantity
        FROM new_rows r WHERE r.deleted_at IS NULL
      ) k CROSS JOIN (VALUES ('all'), ('public')) AS v(visibility)
      WHERE v.visibility = 'all' OR k.public
      GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
      ON CONFLICT ON CONSTRAINT record_stats_pk DO UPDATE SET n = s.n + EXCLUDED.n, quantity = s.quantity + EXCLUDED.quantity;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO record_stats AS s (category, visibility, region, month, victimizer, killing_type, confirmed, n, quantity)
      SELECT k.category, v.visibility, k.region, k.month, k.victimizer, k.killing_type, k.confirmed, -count(*), -coalesce(sum(k.quantity), 0)
      FROM (
        SELECT o.category, coalesce(o.region, '') AS region,
          coalesce(to_char(coalesce(o.happened_on, o.start_at) AT TIME ZONE 'UTC', 'YYYY-MM'), '') AS month,
          left(coalesce(o.victimizer, ''), 300) AS victimizer, left(coalesce(o.killing_type, ''), 300) AS killing_type,
          o.approved AS confirmed, o.public, o.quantity
        FROM old_rows o WHERE o.deleted_at IS NULL
      ) k CROSS JOIN (VALUES ('all'), ('public')) AS v(visibility)
      WHERE v.visibility = 'all' OR k.public
      GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
      ON CONFLICT ON CONSTRAINT record_stats_pk DO UPDATE SET n = s.n + EXCLUDED.n, quantity = s.quantity + EXCLUDED.quantity;
  ELSE
    INSERT INTO record_stats AS s (category, visibility, region, month, victimizer, killing_type, confirmed, n, quantity)
      SELECT k.category, v.visibility, k.region, k.month, k.victimizer, k.killing_type, k.confirmed, sum(k.dn), sum(k.dq)
      FROM (
        SELECT o.category, coalesce(o.region, '') AS region,
          coalesce(to_char(coalesce(o.happened_on, o.start_at) AT TIME ZONE 'UTC', 'YYYY-MM'), '') AS month,
          left(coalesce(o.victimizer, ''), 300) AS victimizer, left(coalesce(o.killing_type, ''), 300) AS killing_type,
          o.approved AS confirmed, o.public, -1 AS dn, -coalesce(o.quantity, 0) AS dq
        FROM old_rows o WHERE o.deleted_at IS NULL
        UNION ALL
        SELECT r.category, coalesce(r.region, ''),
          coalesce(to_char(coalesce(r.happened_on, r.start_at) AT TIME ZONE 'UTC', 'YYYY-MM'), ''),
          left(coalesce(r.victimizer, ''), 300), left(coalesce(r.killing_type, ''), 300),
          r.approved, r.public, 1, coalesce(r.quantity, 0)
        FROM new_rows r WHERE r.deleted_at IS NULL
      ) k CROSS JOIN (VALUES ('all'), ('public')) AS v(visibility)
      WHERE v.visibility = 'all' OR k.public
      GROUP BY 1, 2, 3, 4, 5, 6, 7
      HAVING sum(k.dn) <> 0 OR sum(k.dq) <> 0
      ORDER BY 1, 2, 3, 4, 5, 6, 7
      ON CONFLICT ON CONSTRAINT record_stats_pk DO UPDATE SET n = s.n + EXCLUDED.n, quantity = s.quantity + EXCLUDED.quantity;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER records_stats_insert AFTER INSERT ON records
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION record_stats_statement();
--> statement-breakpoint
CREATE TRIGGER records_stats_update AFTER UPDATE ON records
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION record_stats_statement();
--> statement-breakpoint
CREATE TRIGGER records_stats_delete AFTER DELETE ON records
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION record_stats_statement();
--> statement-breakpoint
-- Records made before this migration: counted once, as the trigger would have.
INSERT INTO record_stats (category, visibility, region, month, victimizer, killing_type, confirmed, n, quantity)
  SELECT k.category, v.visibility, k.region, k.month, k.victimizer, k.killing_type, k.confirmed, count(*), coalesce(sum(k.quantity), 0)
  FROM (
    SELECT r.category, coalesce(r.region, '') AS region,
      coalesce(to_char(coalesce(r.happened_on, r.start_at) AT TIME ZONE 'UTC', 'YYYY-MM'), '') AS month,
      left(coalesce(r.victimizer, ''), 300) AS victimizer, left(coalesce(r.killing_type, ''), 300) AS killing_type,
      r.approved AS confirmed, r.public, r.quantity
    FROM records r WHERE r.deleted_at IS NULL
  ) k CROSS JOIN (VALUES ('all'), ('public')) AS v(visibility)
  WHERE v.visibility = 'all' OR k.public
  GROUP BY 1, 2, 3, 4, 5, 6, 7;
