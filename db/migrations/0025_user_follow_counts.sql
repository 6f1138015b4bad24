-- Follow counts move onto the user: `me`, profiles and user lists counted every follow edge of each user shown (a
-- creator with 100,000 followers meant 100,000 index entries per profile view). The columns count all edges; readers
-- subtract the edges of the few hidden users as before (users_hidden_idx). Kept by statement triggers on follows, so
-- every write path is exact (follow, unfollow, data deletion, cascades of a deleted account), and bulk loads update
-- each user once. The users rows are updated in id order, so concurrent follows between the same users never
-- deadlock. The columns are drizzle-kit's; the backfill, triggers and fillfactor are written by hand.
ALTER TABLE "users" ADD COLUMN "follower_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "following_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "users" u SET
  "follower_count" = (SELECT count(*) FROM "follows" f WHERE f."following_id" = u."id"),
  "following_count" = (SELECT count(*) FROM "follows" f WHERE f."follower_id" = u."id")
WHERE EXISTS (SELECT 1 FROM "follows" f WHERE f."following_id" = u."id" OR f."follower_id" = u."id");--> statement-breakpoint
CREATE FUNCTION follows_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
  edge record;
BEGIN
  FOR edge IN
    SELECT id, sum(followers)::integer AS followers, sum(following)::integer AS following FROM (
      SELECT following_id AS id, 1 AS followers, 0 AS following FROM changed
      UNION ALL SELECT follower_id, 0, 1 FROM changed) e
    GROUP BY id ORDER BY id
  LOOP
    -- A user deleted by this transaction (its follows cascading) is simply not found.
    UPDATE users SET follower_count = follower_count + sign * edge.followers, following_count = following_count + sign * edge.following
    WHERE id = edge.id;
  END LOOP;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER follows_counted_insert AFTER INSERT ON follows
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION follows_counted();--> statement-breakpoint
CREATE TRIGGER follows_counted_delete AFTER DELETE ON follows
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION follows_counted();--> statement-breakpoint
-- Room on each page for the new version of a row, so count updates stay HOT (no index reads these columns).
ALTER TABLE "users" SET (fillfactor = 90);
