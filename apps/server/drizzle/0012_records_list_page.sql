-- A category list's page (ids, exact times, the list's total) as one function whose statements PostgreSQL plans once
-- per connection. Sent as prepared statements, these pages were planned again on every execution: with the page's
-- limit and offset unknown, the plan PostgreSQL would keep looks ten times dearer than one made for the values, so it
-- never keeps it, and planning took more of PostgreSQL's time than reading the page (0.12 ms against 0.07 ms for a
-- keyset page of victims at 100,000 records). The kept plan is the same index-only scan of the list's partial index,
-- whatever the category, limit or offset, so it is forced here (records-explain.test.ts checks each statement's plan).
-- The order is the partial indexes' own (records_category_list_idx, records_category_public_list_idx); the page is cut
-- from the index before its times are written out, so the entries an offset skips are never formatted. An empty page
-- is one row with no id, which carries the total.
CREATE OR REPLACE FUNCTION records_list_page(
  p_category text,
  p_public_only boolean,
  p_cursor_at timestamptz,
  p_cursor_id uuid,
  p_limit integer,
  p_offset integer
) RETURNS TABLE (id uuid, created_at text, total bigint)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $$
#variable_conflict use_column
DECLARE
  list_total bigint;
BEGIN
  SELECT coalesce(sum(c.n), 0) INTO list_total FROM record_counts c
    WHERE c.category = p_category AND c.visibility = CASE WHEN p_public_only THEN 'public' ELSE 'all' END;
  IF p_public_only AND p_cursor_at IS NULL THEN
    RETURN QUERY SELECT page.id, to_char(page.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), list_total
      FROM (SELECT r.id, r.created_at FROM records r
            WHERE r.deleted_at IS NULL AND r.category = p_category AND r.public
            ORDER BY r.created_at DESC NULLS LAST, r.id DESC NULLS LAST LIMIT p_limit OFFSET p_offset) page
      ORDER BY page.created_at DESC NULLS LAST, page.id DESC NULLS LAST;
  ELSIF p_public_only THEN
    RETURN QUERY SELECT page.id, to_char(page.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), list_total
      FROM (SELECT r.id, r.created_at FROM records r
            WHERE r.deleted_at IS NULL AND r.category = p_category AND r.public
              AND (r.created_at, r.id) < (p_cursor_at, p_cursor_id)
            ORDER BY r.created_at DESC NULLS LAST, r.id DESC NULLS LAST LIMIT p_limit OFFSET p_offset) page
      ORDER BY page.created_at DESC NULLS LAST, page.id DESC NULLS LAST;
  ELSIF p_cursor_at IS NULL THEN
    RETURN QUERY SELECT page.id, to_char(page.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), list_total
      FROM (SELECT r.id, r.created_at FROM records r
            WHERE r.deleted_at IS NULL AND r.category = p_category
            ORDER BY r.created_at DESC NULLS LAST, r.id DESC NULLS LAST LIMIT p_limit OFFSET p_offset) page
      ORDER BY page.created_at DESC NULLS LAST, page.id DESC NULLS LAST;
  ELSE
    RETURN QUERY SELECT page.id, to_char(page.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), list_total
      FROM (SELECT r.id, r.created_at FROM records r
            WHERE r.deleted_at IS NULL AND r.category = p_category
              AND (r.created_at, r.id) < (p_cursor_at, p_cursor_id)
            ORDER BY r.created_at DESC NULLS LAST, r.id DESC NULLS LAST LIMIT p_limit OFFSET p_offset) page
      ORDER BY page.created_at DESC NULLS LAST, page.id DESC NULLS LAST;
  END IF;
  IF NOT FOUND THEN
    RETURN QUERY SELECT NULL::uuid, NULL::text, list_total;
  END IF;
END;
$$;
