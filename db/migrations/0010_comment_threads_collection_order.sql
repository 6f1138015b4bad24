-- Comment threads: each comment knows its top-level comment (root_id) and its depth, capped at 3 (MAX_REPLY_DEPTH).
-- Existing rows are backfilled first; replies deeper than the cap are filed under their depth-2 ancestor, so an
-- existing long reply chain reads as one flat level of replies instead of crashing the thread reader.
ALTER TABLE "comments" ADD COLUMN "root_id" text;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "depth" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
WITH RECURSIVE tree AS (
	SELECT id, id AS root_id, 0 AS depth, NULL::text AS anchor FROM comments WHERE parent_id IS NULL
	UNION ALL
	SELECT c.id, t.root_id, t.depth + 1, CASE WHEN t.depth + 1 = 2 THEN c.id ELSE t.anchor END
	-- One index lookup per comment (a plain join would scan the whole table once per level of the deepest chain).
	FROM tree t CROSS JOIN LATERAL (SELECT id FROM comments WHERE parent_id = t.id OFFSET 0) c
)
UPDATE comments c SET root_id = t.root_id, depth = least(t.depth, 3),
	parent_id = CASE WHEN t.depth > 3 THEN t.anchor ELSE c.parent_id END
FROM tree t WHERE t.id = c.id;--> statement-breakpoint
-- Rows no top-level comment reaches (a parent cycle) become top-level comments.
UPDATE comments SET root_id = id, parent_id = NULL, depth = 0 WHERE root_id IS NULL;--> statement-breakpoint
ALTER TABLE "comments" ALTER COLUMN "root_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_root_id_comments_id_fk" FOREIGN KEY ("root_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collection_items_order_idx" ON "collection_items" USING btree ("collection_id","sort_order","added_at","recipe_id");--> statement-breakpoint
CREATE INDEX "comments_root_created_idx" ON "comments" USING btree ("root_id","created_at","id");--> statement-breakpoint
CREATE INDEX "comments_recipe_top_idx" ON "comments" USING btree ("recipe_id","created_at","id") WHERE "comments"."parent_id" is null;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_depth_range" CHECK ("comments"."depth" between 0 and 3);
