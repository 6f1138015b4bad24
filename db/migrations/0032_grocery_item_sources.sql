-- Which planned recipes each gathered grocery line came from (grocery-lists repository); lines gathered before
-- this, and lines added by hand, have none.
ALTER TABLE "grocery_items" ADD COLUMN "source_recipe_ids" text[] DEFAULT '{}'::text[] NOT NULL;