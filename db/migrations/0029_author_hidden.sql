ALTER TABLE "recipes" ADD COLUMN "author_hidden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Recipes of a deactivated or banned author are hidden from everyone else (visibility.ts `shown`). A column on the
-- recipe, not a join to users, so the listing stays one walk of its partial index (the extra condition filters the
-- rare hidden rows). Kept by triggers, so every path that hides or restores an account (admin ban and unban, admin or
-- self deactivation, reactivation) moves it in its own statement. The column is drizzle-kit's; the rest is by hand.
UPDATE "recipes" r SET "author_hidden" = true FROM "users" h
  WHERE h.id = r.author_id AND (NOT h.active OR h.banned_at IS NOT NULL);--> statement-breakpoint
UPDATE recipe_listing SET version = version + 1, listed_count = (SELECT count(*) FROM recipes
  WHERE published AND visibility = 'public' AND moderation_status IN ('approved', 'pending') AND NOT author_hidden);--> statement-breakpoint
UPDATE recipe_popularity p SET listed = false FROM recipes r WHERE r.id = p.recipe_id AND r.author_hidden AND p.listed;--> statement-breakpoint
-- The users update that hides or restores an author sets the flag on all their recipes (recipes_author_created_idx)
-- and moves the listing's count and version and the popular order's `listed` in the same statement, set-based: the row
-- triggers below leave a change of author_hidden alone (through them, hiding an author of 6,700 recipes took 3 s, a
-- row of recipe_listing and of recipe_popularity updated per recipe). recipes_cache_update announces the recipes to
-- the anonymous view cache (migration 0026).
CREATE FUNCTION users_recipes_hidden() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  hide boolean := NOT (NEW.active AND NEW.banned_at IS NULL);
BEGIN
  WITH changed AS (
    UPDATE recipes SET author_hidden = hide WHERE author_id = NEW.id AND author_hidden IS DISTINCT FROM hide
    RETURNING id, published AND visibility = 'public' AND moderation_status IN ('approved', 'pending') AS listable
  ), popular AS (
    UPDATE recipe_popularity p SET listed = c.listable AND NOT hide FROM changed c WHERE p.recipe_id = c.id
  )
  UPDATE recipe_listing SET version = version + 1,
    listed_count = listed_count + (CASE WHEN hide THEN -1 ELSE 1 END) * (SELECT count(*) FROM changed WHERE listable);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_recipes_hidden AFTER UPDATE OF active, banned_at ON users FOR EACH ROW
  WHEN ((OLD.active AND OLD.banned_at IS NULL) IS DISTINCT FROM (NEW.active AND NEW.banned_at IS NULL))
  EXECUTE FUNCTION users_recipes_hidden();--> statement-breakpoint
-- A recipe written for a hidden author starts hidden. Creation locks the author's row, so a ban committed first is
-- seen here, and a ban that waits for the creation finds the recipe.
CREATE FUNCTION recipe_author_hidden() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.author_hidden := EXISTS (SELECT 1 FROM users h WHERE h.id = NEW.author_id AND (NOT h.active OR h.banned_at IS NOT NULL));
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER recipes_author_hidden BEFORE INSERT OR UPDATE OF author_id ON recipes FOR EACH ROW
  EXECUTE FUNCTION recipe_author_hidden();--> statement-breakpoint
-- The listing's count (migration 0011) and the popular order's `listed` (migration 0024) leave hidden recipes out. Their
-- row triggers keep their conditions: a change of author_hidden alone is users_recipes_hidden's; one that comes with a
-- new author_id (recipes_author_hidden) is theirs.
CREATE OR REPLACE FUNCTION recipe_listing_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE recipe_listing SET version = version + 1, listed_count = listed_count + (
    SELECT count(*) FROM changed WHERE published AND visibility = 'public' AND moderation_status IN ('approved', 'pending') AND NOT author_hidden);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION recipe_listing_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE recipe_listing SET version = version + 1, listed_count = listed_count - (
    SELECT count(*) FROM changed WHERE published AND visibility = 'public' AND moderation_status IN ('approved', 'pending') AND NOT author_hidden);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION recipe_listing_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_listed boolean := OLD.published AND OLD.visibility = 'public' AND OLD.moderation_status IN ('approved', 'pending') AND NOT OLD.author_hidden;
  is_listed boolean := NEW.published AND NEW.visibility = 'public' AND NEW.moderation_status IN ('approved', 'pending') AND NOT NEW.author_hidden;
BEGIN
  UPDATE recipe_listing SET version = version + 1, listed_count = listed_count + is_listed::int - was_listed::int;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION recipe_popularity_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO recipe_popularity (recipe_id, like_count, created_at, listed)
    SELECT id, like_count, created_at, published AND visibility = 'public' AND moderation_status IN ('approved', 'pending') AND NOT author_hidden
    FROM changed;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION recipe_popularity_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE recipe_popularity SET like_count = NEW.like_count, created_at = NEW.created_at,
    listed = NEW.published AND NEW.visibility = 'public' AND NEW.moderation_status IN ('approved', 'pending') AND NOT NEW.author_hidden
  WHERE recipe_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER recipes_popularity_update ON recipes;--> statement-breakpoint
CREATE TRIGGER recipes_popularity_update AFTER UPDATE ON recipes FOR EACH ROW
  WHEN (OLD.like_count IS DISTINCT FROM NEW.like_count OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.published IS DISTINCT FROM NEW.published OR OLD.visibility IS DISTINCT FROM NEW.visibility
    OR OLD.moderation_status IS DISTINCT FROM NEW.moderation_status OR OLD.author_id IS DISTINCT FROM NEW.author_id)
  EXECUTE FUNCTION recipe_popularity_changed();
