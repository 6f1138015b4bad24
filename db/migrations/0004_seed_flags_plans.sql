-- Feature flags start enabled for every plan (decisions.md section 7); admins turn them off.
-- Plans are not seeded: while the table is empty the API serves its built-in fallback plans.
INSERT INTO "feature_flags" ("key", "description", "enabled", "plans", "rollout_percentage", "user_ids")
VALUES
  ('recipe-import', 'Import recipes from a URL, a page, an image or text', true, NULL, 100, '[]'::jsonb),
  ('ai-recipes', 'Generate recipes with the AI provider', true, NULL, 100, '[]'::jsonb)
ON CONFLICT ("key") DO NOTHING;
