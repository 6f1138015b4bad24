-- The popular order moves out of recipes (db/schema/recipes.ts, recipePopularity). recipes_listed_popular_idx indexed
-- like_count, so every like and unlike was a non-HOT update of recipes: a new entry in each of its eleven indexes (four
-- GIN: trigrams of the title and of the ingredients, ingredient words and pairs) and dead entries at the head of the
-- listing index. recipe_popularity holds what that index held; triggers keep it in the statement that changes a recipe,
-- so it is exact under any write path (likes, data deletion recounts, moderation, cascades). Measured on dataset M with
-- pgbench (16 clients liking and unliking the 20 newest recipes): 1,070 like/unlike pairs a second before, 1,640 after.
-- The table and index are drizzle-kit's; the backfill, triggers and fillfactor are written by hand.
CREATE TABLE "recipe_popularity" (
	"recipe_id" text PRIMARY KEY NOT NULL,
	"like_count" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"listed" boolean NOT NULL
);
--> statement-breakpoint
INSERT INTO "recipe_popularity" ("recipe_id", "like_count", "created_at", "listed")
  SELECT "id", "like_count", "created_at", "published" AND "visibility" = 'public' AND "moderation_status" IN ('approved', 'pending')
  FROM "recipes";--> statement-breakpoint
ALTER TABLE "recipe_popularity" ADD CONSTRAINT "recipe_popularity_recipe_id_recipes_id_fk" FOREIGN KEY ("recipe_id") REFERENCES "public"."recipes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recipe_popularity_listed_idx" ON "recipe_popularity" USING btree ("like_count","created_at","recipe_id") WHERE "recipe_popularity"."listed";--> statement-breakpoint
-- New recipes: one statement per insert statement (a bulk load writes its rows at once). Deletes cascade.
CREATE FUNCTION recipe_popularity_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO recipe_popularity (recipe_id, like_count, created_at, listed)
    SELECT id, like_count, created_at, published AND visibility = 'public' AND moderation_status IN ('approved', 'pending')
    FROM changed;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION recipe_popularity_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE recipe_popularity SET like_count = NEW.like_count, created_at = NEW.created_at,
    listed = NEW.published AND NEW.visibility = 'public' AND NEW.moderation_status IN ('approved', 'pending')
  WHERE recipe_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER recipes_popularity_insert AFTER INSERT ON recipes
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION recipe_popularity_added();--> statement-breakpoint
-- Only rows whose popular order or listing changed: edits of other columns never touch recipe_popularity.
CREATE TRIGGER recipes_popularity_update AFTER UPDATE ON recipes FOR EACH ROW
  WHEN (OLD.like_count IS DISTINCT FROM NEW.like_count OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.published IS DISTINCT FROM NEW.published OR OLD.visibility IS DISTINCT FROM NEW.visibility
    OR OLD.moderation_status IS DISTINCT FROM NEW.moderation_status)
  EXECUTE FUNCTION recipe_popularity_changed();--> statement-breakpoint
DROP INDEX "recipes_listed_popular_idx";--> statement-breakpoint
-- Room on each page for the new version of a row, so counter updates (likes, comments, ratings) stay HOT. Applies to
-- pages written from now on; VACUUM gives existing pages room as they are cleaned.
ALTER TABLE "recipes" SET (fillfactor = 90);
