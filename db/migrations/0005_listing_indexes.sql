DROP INDEX "recipes_like_count_idx";--> statement-breakpoint
DROP INDEX "recipes_listed_idx";--> statement-breakpoint
CREATE INDEX "recipes_listed_popular_idx" ON "recipes" USING btree ("like_count","created_at","id") WHERE "recipes"."published" and "recipes"."visibility" = 'public' and "recipes"."moderation_status" in ('approved', 'pending');--> statement-breakpoint
CREATE INDEX "recipes_listed_idx" ON "recipes" USING btree ("created_at","id") WHERE "recipes"."published" and "recipes"."visibility" = 'public' and "recipes"."moderation_status" in ('approved', 'pending');