CREATE TABLE "recipe_listing" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"listed_count" bigint DEFAULT 0 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "recipe_listing_one_row" CHECK ("recipe_listing"."id")
);
--> statement-breakpoint
-- The listed count and the listing version, kept by triggers so every write path (cascades included) is counted.
-- Inserts and deletes count per statement (a bulk load updates the row once); updates count per row, only when a
-- column a listing reads changed (like, comment and rating counters never touch this row).
INSERT INTO "recipe_listing" ("id", "listed_count")
  SELECT true, count(*) FROM "recipes"
  WHERE "published" AND "visibility" = 'public' AND "moderation_status" IN ('approved', 'pending');--> statement-breakpoint
CREATE FUNCTION recipe_listing_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE recipe_listing SET version = version + 1, listed_count = listed_count + (
    SELECT count(*) FROM changed WHERE published AND visibility = 'public' AND moderation_status IN ('approved', 'pending'));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION recipe_listing_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE recipe_listing SET version = version + 1, listed_count = listed_count - (
    SELECT count(*) FROM changed WHERE published AND visibility = 'public' AND moderation_status IN ('approved', 'pending'));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION recipe_listing_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_listed boolean := OLD.published AND OLD.visibility = 'public' AND OLD.moderation_status IN ('approved', 'pending');
  is_listed boolean := NEW.published AND NEW.visibility = 'public' AND NEW.moderation_status IN ('approved', 'pending');
BEGIN
  UPDATE recipe_listing SET version = version + 1, listed_count = listed_count + is_listed::int - was_listed::int;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION recipe_listing_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE recipe_listing SET version = version + 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER recipes_listing_insert AFTER INSERT ON recipes
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION recipe_listing_added();--> statement-breakpoint
CREATE TRIGGER recipes_listing_delete AFTER DELETE ON recipes
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION recipe_listing_removed();--> statement-breakpoint
CREATE TRIGGER recipes_listing_update AFTER UPDATE ON recipes FOR EACH ROW
  WHEN (OLD.published IS DISTINCT FROM NEW.published OR OLD.visibility IS DISTINCT FROM NEW.visibility
    OR OLD.moderation_status IS DISTINCT FROM NEW.moderation_status OR OLD.title IS DISTINCT FROM NEW.title
    OR OLD.ingredients_text IS DISTINCT FROM NEW.ingredients_text OR OLD.type IS DISTINCT FROM NEW.type
    OR OLD.difficulty IS DISTINCT FROM NEW.difficulty OR OLD.cuisine IS DISTINCT FROM NEW.cuisine
    OR OLD.total_time IS DISTINCT FROM NEW.total_time OR OLD.prep_time IS DISTINCT FROM NEW.prep_time
    OR OLD.cook_time IS DISTINCT FROM NEW.cook_time OR OLD.author_id IS DISTINCT FROM NEW.author_id)
  EXECUTE FUNCTION recipe_listing_changed();--> statement-breakpoint
CREATE TRIGGER recipe_tags_listing_insert AFTER INSERT ON recipe_tags FOR EACH STATEMENT EXECUTE FUNCTION recipe_listing_bump();--> statement-breakpoint
CREATE TRIGGER recipe_tags_listing_delete AFTER DELETE ON recipe_tags FOR EACH STATEMENT EXECUTE FUNCTION recipe_listing_bump();--> statement-breakpoint
CREATE TRIGGER users_listing_username AFTER UPDATE OF username_key ON users FOR EACH ROW
  WHEN (OLD.username_key IS DISTINCT FROM NEW.username_key) EXECUTE FUNCTION recipe_listing_bump();
