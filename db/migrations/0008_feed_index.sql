DROP INDEX "recipes_author_created_idx";--> statement-breakpoint
CREATE INDEX "recipes_author_created_idx" ON "recipes" USING btree ("author_id","created_at","id");