-- One ingredient vocabulary (lib/ingredient-vocabulary.ts): the search's normalisation makes words singular with the
-- rule and exceptions grocery lists and nutrition use, so "geese", "grits" and "mousses" are goose, grits and mousse
-- everywhere (0023 made stems of its own: berries -> berri, cookies -> cooki).
--
-- ingredient_singular(word) is generated from the TypeScript table (singularFunctionSql(); the vocabulary test checks this
-- file still holds exactly its text and runs the same cases through both). ingredient_fold folds as before (accents,
-- case, apostrophes, punctuation, spaces; migration 0023) and then makes every word singular with it: each line break
-- becomes a word of its own (' \n ', which no rule changes), the words are mapped in order and the breaks put back, so
-- the line count is kept. ingredient_singular is inlined (one expression, not STRICT): the fold costs about what 0023's
-- regular expressions did, about 60 us for ten ingredients.
--
-- The keys are stored (recipes.ingredient_names and ingredient_words, generated columns) and indexed
-- (recipes_ingredient_words_idx, and recipes_ingredient_pairs_idx on ingredient_name_pairs(ingredient_names)), and
-- PostgreSQL recomputes neither when a function changes: the two indexes and columns are dropped and added again, as
-- 0023 added them. Cost: one rewrite of recipes, computing the columns for every row (about 20-25 s per 100,000
-- recipes), then building the two GIN indexes (about 6 s), under an ACCESS EXCLUSIVE lock on recipes throughout.
-- The staple ranks name the new keys (berry, celery, rosemary instead of the stems berri, celeri, rosemari).
CREATE OR REPLACE FUNCTION ingredient_singular(word text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN coalesce(('{
  "molasses": "molasses", "grits": "grits", "greens": "greens", "bitters": "bitters", "series": "series", "species": "species",
  "leaves": "leaf", "loaves": "loaf", "halves": "half", "calves": "calf", "knives": "knife", "shelves": "shelf",
  "cookies": "cookie", "brownies": "brownie", "veggies": "veggie", "smoothies": "smoothie", "calories": "calorie", "pies": "pie",
  "chilies": "chili", "chillies": "chilli", "quiches": "quiche", "brioches": "brioche", "ganaches": "ganache", "mousses": "mousse",
  "shoes": "shoe", "kiwis": "kiwi", "chilis": "chili", "rotis": "roti", "chapatis": "chapati", "salamis": "salami",
  "blinis": "blini", "paninis": "panini", "martinis": "martini", "zucchinis": "zucchini", "mice": "mouse", "geese": "goose",
  "teeth": "tooth", "feet": "foot", "children": "child", "people": "person", "oxen": "ox"
  }'::jsonb) ->> word, CASE
  WHEN right(word, 1) <> 's' OR length(word) < 4 OR right(word, 2) IN ('ss', 'us', 'is') THEN word
  WHEN right(word, 3) = 'ies' THEN left(word, -3) || 'y'
  WHEN right(word, 3) IN ('xes', 'zes', 'oes') OR right(word, 4) IN ('ches', 'shes', 'sses') THEN left(word, -2)
  ELSE left(word, -1)
END);
--> statement-breakpoint
DROP INDEX "recipes_ingredient_pairs_idx";--> statement-breakpoint
DROP INDEX "recipes_ingredient_words_idx";--> statement-breakpoint
ALTER TABLE "recipes" DROP COLUMN "ingredient_words", DROP COLUMN "ingredient_names";--> statement-breakpoint
CREATE OR REPLACE FUNCTION ingredient_fold(lines text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN replace(array_to_string(ARRAY(
  SELECT public.ingredient_singular(w) FROM unnest(string_to_array(replace(btrim(regexp_replace(regexp_replace(
    translate(lower(public.unaccent('public.unaccent'::regdictionary, lines)), '''`‘’', ''),
    '[^\n0-9a-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff\u0590-\u06ff\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+', ' ', 'g'),
    ' ?\n ?', E'\n', 'g'), ' '), E'\n', E' \n '), ' ')) WITH ORDINALITY AS u(w, i) ORDER BY i), ' '), E' \n ', E'\n');
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ingredient_staple_rank(word text) RETURNS integer LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN coalesce((('{"salt": 1, "pepper": 2, "oil": 3, "butter": 4, "sugar": 5, "garlic": 6, "onion": 7, "water": 8, "flour": 9,
   "egg": 10, "olive": 11, "milk": 12, "cheese": 13, "lemon": 14, "cream": 15, "vanilla": 16, "baking": 17,
   "soda": 18, "chicken": 19, "tomato": 20, "clove": 21, "cinnamon": 22, "vinegar": 23, "parsley": 24,
   "broth": 25, "stock": 26, "rice": 27, "beef": 28, "honey": 29, "soy": 30, "ginger": 31, "carrot": 32,
   "celery": 33, "potato": 34, "bean": 35, "cumin": 36, "paprika": 37, "cilantro": 38, "thyme": 39, "oregano": 40,
   "basil": 41, "wine": 42, "lime": 43, "chili": 44, "mustard": 45, "yeast": 46, "cornstarch": 47, "parmesan": 48,
   "cheddar": 49, "bread": 50, "pasta": 51, "nutmeg": 52, "bacon": 53, "mushroom": 54, "spinach": 55,
   "sesame": 56, "maple": 57, "syrup": 58, "coconut": 59, "chocolate": 60, "walnut": 61, "almond": 62,
   "pecan": 63, "orange": 64, "apple": 65, "banana": 66, "yogurt": 67, "mayonnaise": 68, "ketchup": 69,
   "worcestershire": 70, "bay": 71, "scallion": 72, "shallot": 73, "jalapeno": 74, "avocado": 75, "cucumber": 76,
   "zucchini": 77, "pork": 78, "shrimp": 79, "salmon": 80, "turkey": 81, "sausage": 82, "ham": 83, "corn": 84,
   "pea": 85, "lettuce": 86, "cabbage": 87, "broccoli": 88, "mozzarella": 89, "feta": 90, "ricotta": 91,
   "tortilla": 92, "noodle": 93, "oat": 94, "raisin": 95, "cocoa": 96, "peanut": 97, "berry": 98, "rosemary": 99,
   "dill": 100, "mint": 101, "sage": 102, "turmeric": 103, "coriander": 104, "cayenne": 105, "buttermilk": 106,
   "breadcrumb": 107, "cornmeal": 108}'::jsonb) ->> word)::integer, 0);
--> statement-breakpoint
ALTER TABLE "recipes" ADD COLUMN "ingredient_names" text[] GENERATED ALWAYS AS (recipe_ingredient_names(ingredients)) STORED NOT NULL,
  ADD COLUMN "ingredient_words" text[] GENERATED ALWAYS AS (ingredient_name_words(recipe_ingredient_names(ingredients))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "recipes_ingredient_words_idx" ON "recipes" USING gin ("ingredient_words") WITH (gin_pending_list_limit=256) WHERE "recipes"."published" and "recipes"."visibility" = 'public' and "recipes"."moderation_status" in ('approved', 'pending');--> statement-breakpoint
CREATE INDEX "recipes_ingredient_pairs_idx" ON "recipes" USING gin (ingredient_name_pairs("ingredient_names")) WITH (gin_pending_list_limit=256) WHERE "recipes"."published" and "recipes"."visibility" = 'public' and "recipes"."moderation_status" in ('approved', 'pending');
