-- A capture whose page replaced itself after it loaded keeps the first document's address and status (the row's
-- final_url and http_status are the captured document's).
ALTER TABLE "link_captures" ADD COLUMN "first_load" jsonb;
