-- Every change to what an anonymous recipe view shows is announced on the `recipe_cache` channel, so each instance
-- drops its rendered copy (plugins/app/services/recipe-view-cache.ts). Statement triggers, so every write path is
-- covered (edits, counters, moderation, cascades of a deleted account, bulk updates) and a statement sends each id once.
-- Payloads: 'r:<recipe id>', 'u:<author id>' (name or avatar changed), '*' (too many to name: drop everything).
CREATE FUNCTION recipe_cache_notify(kind text, ids text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(ids) > 100 THEN
    PERFORM pg_notify('recipe_cache', '*');
  ELSE
    PERFORM pg_notify('recipe_cache', kind || ':' || id) FROM unnest(ids) AS id;
  END IF;
END $$;--> statement-breakpoint
-- `changed` holds recipes rows or recipe_tags rows (each branch is planned only when it runs).
CREATE FUNCTION recipe_rows_cache_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'recipes' THEN
    PERFORM recipe_cache_notify('r', (SELECT coalesce(array_agg(DISTINCT id), '{}') FROM changed));
  ELSE
    PERFORM recipe_cache_notify('r', (SELECT coalesce(array_agg(DISTINCT recipe_id), '{}') FROM changed));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER recipes_cache_update AFTER UPDATE ON recipes
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION recipe_rows_cache_changed();--> statement-breakpoint
CREATE TRIGGER recipes_cache_delete AFTER DELETE ON recipes
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION recipe_rows_cache_changed();--> statement-breakpoint
CREATE TRIGGER recipe_tags_cache_insert AFTER INSERT ON recipe_tags
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION recipe_rows_cache_changed();--> statement-breakpoint
CREATE TRIGGER recipe_tags_cache_delete AFTER DELETE ON recipe_tags
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION recipe_rows_cache_changed();--> statement-breakpoint
-- A renamed tag changes every recipe carrying it (a deleted tag cascades to recipe_tags, announced above).
CREATE FUNCTION tags_cache_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM recipe_cache_notify('r', (SELECT coalesce(array_agg(DISTINCT rt.recipe_id), '{}')
    FROM changed c JOIN recipe_tags rt ON rt.tag_id = c.id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER tags_cache_update AFTER UPDATE ON tags
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tags_cache_changed();--> statement-breakpoint
-- Only the author fields a recipe shows: logins and follow counts update users all the time.
CREATE FUNCTION users_cache_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM recipe_cache_notify('u', (SELECT coalesce(array_agg(o.id), '{}') FROM old_users o JOIN new_users n ON n.id = o.id
    WHERE (o.username, o.first_name, o.last_name, o.avatar_url) IS DISTINCT FROM (n.username, n.first_name, n.last_name, n.avatar_url)));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_cache_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_users NEW TABLE AS new_users FOR EACH STATEMENT EXECUTE FUNCTION users_cache_changed();
