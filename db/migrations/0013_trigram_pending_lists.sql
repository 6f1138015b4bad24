-- drizzle-kit would drop and rebuild both indexes; setting the parameter in place is the same index, and instant.
ALTER INDEX "recipes_title_trgm_idx" SET (gin_pending_list_limit=256);--> statement-breakpoint
ALTER INDEX "recipes_ingredients_trgm_idx" SET (gin_pending_list_limit=256);
