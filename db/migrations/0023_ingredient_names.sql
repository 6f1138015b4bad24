-- Search by ingredients (POST /api/ai-recipes/search-by-ingredients). The normalisation of ingredient names is defined
-- once, here, in SQL: the generated columns below store it for every recipe, and the search normalises its terms with
-- the same function (recipe_ingredient_names(to_jsonb(terms))), so a recipe and a query can never disagree.
-- The functions are written by hand (drizzle-kit does not emit functions); the columns and indexes after them are
-- drizzle-kit's (its two ADD COLUMN statements joined into one, so the table is rewritten once).
--
-- ingredient_fold(lines): newline-separated names -> newline-separated match keys (the line count is kept):
--   accents folded (unaccent, called with its dictionary so the function is immutable), lower case, apostrophes dropped
--   ("baker's" -> "bakers"), every other character but letters and digits a word break, spaces collapsed and trimmed;
--   then each word made singular: -ies/-ie -> -i and consonant + y -> -i (berries, berry -> berri; cookies, cookie ->
--   cooki; chilies, chili -> chili), -es after ch/sh/x/z/ss/o dropped (tomatoes -> tomato, peaches -> peach, boxes ->
--   box, glasses -> glass), a final s dropped from words of 4+ letters not ending in ss/us/is (eggs -> egg, peas -> pea;
--   asparagus, hummus, couscous, swiss, anis, gas stay), leaves/halves/loaves/calves -> leaf/half/loaf/calf.
--   Exceptions, kept as written: molasses, greens, bitters (collard greens are not the colour); quiches, brioches ->
--   quiche, brioche. A key is a stem, not always a word (berri): it is only ever compared with other keys.
CREATE FUNCTION ingredient_fold(lines text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN btrim(replace(
  regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
    translate(lower(public.unaccent('public.unaccent'::regdictionary, lines)), '''`‘’', ''),
    '[^\n0-9a-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff\u0590-\u06ff\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+', ' ', 'g'),
    ' ?\n ?', E'\n', 'g'),
    '\m(quiche|brioche)s\M|\m(molasses|greens|bitters)\M', '\1\2_', 'g'),
    'ies?\M', 'i', 'g'),
    '(ch|sh|x|z|ss|o)es\M', '\1', 'g'),
    '([a-z]{2}[a-hj-rtv-z])s\M', '\1', 'g'),
    '([b-df-hj-np-tv-xz])y\M', '\1i', 'g'),
    '\m(lea|hal|loa|cal)ve\M', '\1f', 'g'),
  '_', ''), ' ');
--> statement-breakpoint
-- The match key of each ingredient of a recipe's `ingredients` (jsonb), in order: an object's name, or its text when the
-- name is empty; a string as it is; '' for anything else and for a name without letters or digits. The ingredients are
-- folded as one text (one call, not one per ingredient): about 40 us for a recipe of ten ingredients.
-- Search terms go through it too: recipe_ingredient_names(to_jsonb(ARRAY['Tomatoes', 'Crème fraîche'])).
CREATE FUNCTION recipe_ingredient_names(items jsonb) RETURNS text[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  lines text[] := '{}';
  item jsonb;
BEGIN
  IF jsonb_typeof(items) IS DISTINCT FROM 'array' THEN RETURN lines; END IF;
  FOR i IN 0 .. jsonb_array_length(items) - 1 LOOP
    item := items -> i;
    lines := lines || replace(coalesce(CASE jsonb_typeof(item)
      WHEN 'object' THEN coalesce(nullif(btrim(item ->> 'name'), ''), item ->> 'text')
      WHEN 'string' THEN item #>> '{}' END, ''), E'\n', ' ');
  END LOOP;
  RETURN string_to_array(public.ingredient_fold(array_to_string(lines, E'\n')), E'\n');
END $$;
--> statement-breakpoint
-- The distinct words of a recipe's keys, sorted: what the GIN index holds.
CREATE FUNCTION ingredient_name_words(names text[]) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN array(SELECT DISTINCT w FROM unnest(string_to_array(array_to_string(names, ' '), ' ')) AS w WHERE w <> '' ORDER BY w);
--> statement-breakpoint
-- How common an ingredient word is: its rank among about a hundred staples, most common first (salt 1, pepper 2...);
-- 0 for any other word. Only ingredient_name_pairs uses it, to pick the names least likely to be in a pantry: the list
-- changes how many recipes a search reads, never which recipes it finds.
CREATE FUNCTION ingredient_staple_rank(word text) RETURNS integer LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN coalesce((('{"salt": 1, "pepper": 2, "oil": 3, "butter": 4, "sugar": 5, "garlic": 6, "onion": 7, "water": 8, "flour": 9,
   "egg": 10, "olive": 11, "milk": 12, "cheese": 13, "lemon": 14, "cream": 15, "vanilla": 16, "baking": 17,
   "soda": 18, "chicken": 19, "tomato": 20, "clove": 21, "cinnamon": 22, "vinegar": 23, "parsley": 24,
   "broth": 25, "stock": 26, "rice": 27, "beef": 28, "honey": 29, "soy": 30, "ginger": 31, "carrot": 32,
   "celeri": 33, "potato": 34, "bean": 35, "cumin": 36, "paprika": 37, "cilantro": 38, "thyme": 39, "oregano": 40,
   "basil": 41, "wine": 42, "lime": 43, "chili": 44, "mustard": 45, "yeast": 46, "cornstarch": 47, "parmesan": 48,
   "cheddar": 49, "bread": 50, "pasta": 51, "nutmeg": 52, "bacon": 53, "mushroom": 54, "spinach": 55,
   "sesame": 56, "maple": 57, "syrup": 58, "coconut": 59, "chocolate": 60, "walnut": 61, "almond": 62,
   "pecan": 63, "orange": 64, "apple": 65, "banana": 66, "yogurt": 67, "mayonnaise": 68, "ketchup": 69,
   "worcestershire": 70, "bay": 71, "scallion": 72, "shallot": 73, "jalapeno": 74, "avocado": 75, "cucumber": 76,
   "zucchini": 77, "pork": 78, "shrimp": 79, "salmon": 80, "turkey": 81, "sausage": 82, "ham": 83, "corn": 84,
   "pea": 85, "lettuce": 86, "cabbage": 87, "broccoli": 88, "mozzarella": 89, "feta": 90, "ricotta": 91,
   "tortilla": 92, "noodle": 93, "oat": 94, "raisin": 95, "cocoa": 96, "peanut": 97, "berri": 98, "rosemari": 99,
   "dill": 100, "mint": 101, "sage": 102, "turmeric": 103, "coriander": 104, "cayenne": 105, "buttermilk": 106,
   "breadcrumb": 107, "cornmeal": 108}'::jsonb) ->> word)::integer, 0);
--> statement-breakpoint
-- The complete-match signature of a recipe, from its keys: the words of its two "hardest" ingredients (a name is as
-- common as its most common staple word; one with none is the hardest; the first of equals wins), paired: 'a|b' for
-- every word a of one and b of the other, in text order. A recipe with one ingredient: that ingredient's words. Whoever
-- has every ingredient of a recipe has those two, so one of these pairs is a pair of their words
-- (ingredient_query_pairs): the pair index finds every recipe a list covers completely, reading few others.
CREATE FUNCTION ingredient_name_pairs(names text[]) RETURNS text[] LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  key text;
  word text;
  commonness integer;
  hardest text;
  hardest_commonness integer := -1;
  second text;
  second_commonness integer := -1;
  a text;
  b text;
  pairs text[] := '{}';
BEGIN
  FOREACH key IN ARRAY names LOOP
    CONTINUE WHEN key = '' OR key = hardest OR key = second;
    commonness := 1000;
    FOREACH word IN ARRAY string_to_array(key, ' ') LOOP
      commonness := least(commonness, nullif(public.ingredient_staple_rank(word), 0));
    END LOOP;
    IF commonness > hardest_commonness THEN
      second := hardest; second_commonness := hardest_commonness; hardest := key; hardest_commonness := commonness;
    ELSIF commonness > second_commonness THEN
      second := key; second_commonness := commonness;
    END IF;
  END LOOP;
  IF hardest IS NULL THEN RETURN pairs; END IF;
  IF second IS NULL THEN RETURN array(SELECT DISTINCT unnest(string_to_array(hardest, ' '))); END IF;
  FOREACH a IN ARRAY string_to_array(hardest, ' ') LOOP
    FOREACH b IN ARRAY string_to_array(second, ' ') LOOP
      word := least(a, b) || '|' || greatest(a, b);
      IF NOT word = ANY (pairs) THEN pairs := pairs || word; END IF;
    END LOOP;
  END LOOP;
  RETURN pairs;
END $$;
--> statement-breakpoint
-- What a search looks up in the pair index for the words of its terms: every word, and every pair of them (a word with
-- itself included), in the form of ingredient_name_pairs.
CREATE FUNCTION ingredient_query_pairs(words text[]) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN array(SELECT a.w FROM unnest(words) AS a(w)
  UNION SELECT least(a.w, b.w) || '|' || greatest(a.w, b.w) FROM unnest(words) AS a(w), unnest(words) AS b(w));
--> statement-breakpoint
-- Adding the columns rewrites the table once, computing them for every existing row (one statement, so one rewrite:
-- about 20 s for 100,000 recipes, then about 6 s for the two indexes).
ALTER TABLE "recipes" ADD COLUMN "ingredient_names" text[] GENERATED ALWAYS AS (recipe_ingredient_names(ingredients)) STORED NOT NULL,
  ADD COLUMN "ingredient_words" text[] GENERATED ALWAYS AS (ingredient_name_words(recipe_ingredient_names(ingredients))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "recipes_ingredient_words_idx" ON "recipes" USING gin ("ingredient_words") WITH (gin_pending_list_limit=256) WHERE "recipes"."published" and "recipes"."visibility" = 'public' and "recipes"."moderation_status" in ('approved', 'pending');--> statement-breakpoint
CREATE INDEX "recipes_ingredient_pairs_idx" ON "recipes" USING gin (ingredient_name_pairs("ingredient_names")) WITH (gin_pending_list_limit=256) WHERE "recipes"."published" and "recipes"."visibility" = 'public' and "recipes"."moderation_status" in ('approved', 'pending');