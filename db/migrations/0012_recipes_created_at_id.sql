DROP INDEX "recipes_created_at_idx";--> statement-breakpoint
CREATE INDEX "recipes_created_at_idx" ON "recipes" USING btree ("created_at","id");