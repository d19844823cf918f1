-- Keeps record_counts exact: every insert, delete, trash, restore, category or visibility change of records moves
-- their contribution. Reading a list total is then one row, however many records there are. Statement-level
-- triggers with transition tables aggregate a bulk change in one step instead of one call per row.
CREATE OR REPLACE FUNCTION record_counts_statement() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO record_counts (category, visibility, n)
      SELECT o.category, v.visibility, -count(*)
      FROM old_rows o CROSS JOIN (VALUES ('all'), ('public')) AS v(visibility)
      WHERE o.deleted_at IS NULL AND (v.visibility = 'all' OR o.public)
      GROUP BY o.category, v.visibility
      ON CONFLICT (category, visibility) DO UPDATE SET n = record_counts.n + EXCLUDED.n;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO record_counts (category, visibility, n)
      SELECT r.category, v.visibility, count(*)
      FROM new_rows r CROSS JOIN (VALUES ('all'), ('public')) AS v(visibility)
      WHERE r.deleted_at IS NULL AND (v.visibility = 'all' OR r.public)
      GROUP BY r.category, v.visibility
      ON CONFLICT (category, visibility) DO UPDATE SET n = record_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER records_counts_insert AFTER INSERT ON records
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION record_counts_statement();
--> statement-breakpoint
CREATE TRIGGER records_counts_update AFTER UPDATE ON records
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION record_counts_statement();
--> statement-breakpoint
CREATE TRIGGER records_counts_delete AFTER DELETE ON records
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION record_counts_statement();
--> statement-breakpoint
INSERT INTO record_counts (category, visibility, n)
  SELECT category, 'all', count(*) FROM records WHERE deleted_at IS NULL GROUP BY category
  ON CONFLICT (category, visibility) DO UPDATE SET n = EXCLUDED.n;
--> statement-breakpoint
INSERT INTO record_counts (category, visibility, n)
  SELECT category, 'public', count(*) FROM records WHERE deleted_at IS NULL AND public GROUP BY category
  ON CONFLICT (category, visibility) DO UPDATE SET n = EXCLUDED.n;
