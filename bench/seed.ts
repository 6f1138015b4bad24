// The seed: bulk SQL (INSERT ... SELECT generate_series) into the service's real tables, deterministic, so every
// run of a dataset sees the same rows. datasets.ts runs these statements once per database and hashes their text
// into the seed version: editing anything here reseeds on the next run.
//
// Shape: 500 authors write every recipe; `reader` follows all 500; `fans` rate, like, bookmark (their Saved Recipes
// collection too), comment and follow authors; `storm` users have no seeded activity (the like storm and the mixed
// load toggle their likes, and clean up after). Every user's password is BENCH_PASSWORD (one cost-12 bcrypt hash), and
// so is the bench admin's (ADMIN_USERNAME, an admin_users row: the admin scenarios sign in with it).
// Titles are "<adjective> <main> <dish>": "chicken" is the main of 1 in 12 titles, and "chicken stock" is an
// ingredient of about 1 in 20 other recipes (they match "chicken" only in ingredients). RARE_TERM is in exactly 10
// titles, ZERO_TERM in none. 1 in 50 recipes is private, 1 in 50 a draft, 1 in 50 friends-only, 1 in 100 pending
// moderation (still listed), 1 in 200 flagged (hidden).

export const BENCH_PASSWORD = 'Bench-Passw0rd'
export const COMMON_TERM = 'chicken'
export const RARE_TERM = 'kohlrabi'
export const ZERO_TERM = 'xylophone'
export const AUTHORS = 500
export const STORM_USERS = 50
export const READER_ID = 'reader'
export const ADMIN_ID = 'bench-admin'
export const ADMIN_USERNAME = 'benchadmin'

export interface Shape {
  recipes: number
  /** Users who rate, like, bookmark, comment and follow. */
  fans: number
  ratings: number
  likes: number
  bookmarks: number
  /** Including the reader's 500. */
  follows: number
  comments: number
}

export const authorId = (i: number) => `a${i}`
export const fanId = (i: number) => `u${i}`
export const fanUsername = (i: number) => `fan${i}`
export const stormId = (i: number) => `s${i}`
export const stormUsername = (i: number) => `storm${i}`
export const recipeId = (i: number) => `r${i}`

/** Recipe number i is listed (public, published, not hidden by moderation): the same rules as the recipes below. */
export const isListed = (i: number) => i % 50 !== 1 && i % 50 !== 2 && i % 50 !== 5 && i % 200 !== 4

const list = (words: string[]) => `array[${words.map(w => `'${w}'`).join(', ')}]`
const ADJECTIVES = list(['Smoky', 'Crispy', 'Creamy', 'Spicy', 'Zesty', 'Rustic', 'Golden', 'Herbed', 'Tangy', 'Hearty', 'Roasted', 'Sticky'])
// "Chicken" first: recipe i has it when i % 12 = 0. No other word contains "chicken" (chickpea does not).
const MAINS = list(['Chicken', 'Tofu', 'Salmon', 'Beef', 'Lentil', 'Mushroom', 'Shrimp', 'Pork', 'Eggplant', 'Chickpea', 'Turkey', 'Cauliflower'])
const DISHES = list(['Stew', 'Curry', 'Tacos', 'Salad', 'Pie', 'Skillet', 'Bowl', 'Soup', 'Bake', 'Stir-Fry'])
const PANTRY = list(['onion', 'garlic', 'olive oil', 'sea salt', 'black pepper', 'lemon', 'ginger', 'cumin', 'paprika', 'butter', 'rice', 'tomato', 'parsley', 'chili flakes', 'soy sauce', 'honey'])
const CUISINES = list(['Italian', 'Thai', 'Mexican', 'French', 'Indian', 'Japanese', 'Greek', 'American'])

const T0 = "timestamptz '2020-01-01 00:00:00+00'"

function users (idPrefix: string, namePrefix: string, count: number, firstName: string): string {
  return `insert into users (id, email, username, username_key, password, first_name, last_name, verified, created_at, updated_at)
    select '${idPrefix}' || g, '${namePrefix}' || g || '@bench.example', '${namePrefix}' || g, '${namePrefix}' || g, $1,
      '${firstName}', g::text, true, ${T0} - interval '30 days', ${T0} - interval '30 days'
    from generate_series(0, ${count - 1}) g`
}

/** `rows` (user, recipe) pairs, unique per user: fan i % fans, its k-th recipe (start + k * step) mod recipes. */
function pairs (shape: Shape, rows: number, start: number, step: number): string {
  return `select 'u' || (i % ${shape.fans}) as user_id, 'r' || (((i % ${shape.fans}) * ${start} + (i / ${shape.fans}) * ${step}) % ${shape.recipes}) as recipe_id,
      i % ${shape.fans} as f, i / ${shape.fans} as k, ${T0} + (i % ${shape.recipes}) * interval '1 minute' + interval '1 day' as at
    from generate_series(0, ${rows - 1}) i`
}

/**
 * The inserts; `$1` is the bcrypt hash of BENCH_PASSWORD. They do not depend on one another's rows (ids are computed),
 * so with foreign-key triggers off they may run in any order, in parallel. Then COUNTERS.
 */
export function seedStatements (shape: Shape): string[] {
  const { recipes } = shape
  const rareEvery = Math.floor(recipes / 10)
  // The step of each pair generator must be coprime with the recipe count (powers of ten here) and the per-fan
  // count below the recipe count, so no (user, recipe) pair repeats.
  for (const [rows, step] of [[shape.ratings, 997], [shape.likes, 1009], [shape.bookmarks, 1013]]) {
    if (rows / shape.fans >= recipes || recipes % step === 0) throw new Error('seed shape would repeat pairs')
  }
  return [
    users('a', 'author', AUTHORS, 'Author'),
    `insert into users (id, email, username, username_key, password, first_name, verified, created_at, updated_at)
      values ('${READER_ID}', 'reader@bench.example', 'reader', 'reader', $1, 'Reader', true, ${T0} - interval '30 days', ${T0} - interval '30 days')`,
    users('u', 'fan', shape.fans, 'Fan'),
    users('s', 'storm', STORM_USERS, 'Storm'),
    `insert into admin_users (id, email, username, password, created_at, updated_at)
      values ('${ADMIN_ID}', 'admin@bench.example', '${ADMIN_USERNAME}', $1, ${T0} - interval '30 days', ${T0} - interval '30 days')`,

    `insert into recipes (id, author_id, slug, title, description, type, difficulty, visibility, published, moderation_status,
        cuisine, prep_time, cook_time, total_time, servings, ingredients, instructions, ingredients_text, created_at, updated_at)
      select 'r' || g, 'a' || (g % ${AUTHORS}), 'recipe-' || g,
        w.adj || ' ' || w.main || ' ' || w.dish || case when g % ${rareEvery} = 7 then ' with ${RARE_TERM[0].toUpperCase() + RARE_TERM.slice(1)}' else '' end,
        'A ' || lower(w.adj) || ' ' || lower(w.dish) || ' for any night of the week.',
        case when g % 25 = 0 then 'drink' else 'food' end,
        (array['easy', 'medium', 'hard'])[1 + g % 3],
        case g % 50 when 1 then 'private' when 5 then 'friends' else 'public' end,
        g % 50 <> 2,
        case when g % 200 = 4 then 'flagged' when g % 100 = 3 then 'pending' else 'approved' end,
        (${CUISINES})[1 + g % 8], 5 + g % 30, 10 + g % 60, 15 + g % 30 + g % 60, 1 + g % 6,
        -- JSON built as text (no quotes or backslashes in any word): faster than jsonb_build_object at a million rows.
        ('[{"text": "' || i.main_text || '", "name": "' || i.main || '"}, {"text": "1 tbsp ' || i.p1 || '", "name": "' || i.p1 ||
          '"}, {"text": "2 tsp ' || i.p2 || '", "name": "' || i.p2 || '"}, {"text": "1 pinch ' || i.p3 || '", "name": "' || i.p3 || '"}' ||
          case when i.stock then ', {"text": "250 ml ${COMMON_TERM} stock", "name": "${COMMON_TERM} stock"}' else '' end || ']')::jsonb,
        ('[{"step": 1, "text": "Prepare the ' || i.main || ' and the vegetables."}, {"step": 2, "text": "Cook for ' || (10 + g % 60) ||
          ' minutes, stirring now and then."}, {"step": 3, "text": "Season and serve warm."}]')::jsonb,
        -- What the service stores (lib/ingredients.ts): each line's text and name, lower-cased, one per line.
        concat_ws(E'\\n', i.main_text, i.main, '1 tbsp ' || i.p1, i.p1, '2 tsp ' || i.p2, i.p2, '1 pinch ' || i.p3, i.p3,
          case when i.stock then '250 ml ${COMMON_TERM} stock' end, case when i.stock then '${COMMON_TERM} stock' end),
        w.at, w.at
      from generate_series(0, ${recipes - 1}) g
      cross join lateral (select (${ADJECTIVES})[1 + (g / 12) % 12] as adj, (${MAINS})[1 + g % 12] as main,
        (${DISHES})[1 + (g / 144) % 10] as dish, ${T0} + g * interval '1 minute' as at) w
      -- Three different pantry items; "chicken stock" in about 1 in 20 recipes whose main is not chicken.
      cross join lateral (select lower(w.main) as main, '500 g ' || lower(w.main) as main_text, (${PANTRY})[1 + g % 16] as p1,
        (${PANTRY})[1 + (g + 5) % 16] as p2, (${PANTRY})[1 + (g + 11) % 16] as p3, g % 20 = 3 and g % 12 <> 0 as stock) i`,

    `insert into follows (follower_id, following_id, created_at)
      select '${READER_ID}', 'a' || g, ${T0} from generate_series(0, ${AUTHORS - 1}) g
      union all
      select 'u' || (i % ${shape.fans}), 'a' || ((i % ${shape.fans} + (i / ${shape.fans}) * 53) % ${AUTHORS}), ${T0}
      from generate_series(0, ${shape.follows - AUTHORS - 1}) i`,

    `insert into ratings (user_id, recipe_id, rating, created_at, updated_at)
      select user_id, recipe_id, 1 + (f + k) % 5, at, at from (${pairs(shape, shape.ratings, 37, 997)}) p`,
    `insert into likes (user_id, recipe_id, created_at) select user_id, recipe_id, at from (${pairs(shape, shape.likes, 53, 1009)}) p`,
    `insert into bookmarks (user_id, recipe_id, created_at) select user_id, recipe_id, at from (${pairs(shape, shape.bookmarks, 71, 1013)}) p`,
    // Each bookmark is also an item of the fan's Saved Recipes collection (services/bookmarks.ts).
    `insert into collections (id, user_id, name, slug, type, created_at, updated_at)
      select 'col' || g, 'u' || g, 'Saved Recipes', 'saved-recipes', 'saved', ${T0}, ${T0} from generate_series(0, ${shape.fans - 1}) g`,
    `insert into collection_items (collection_id, recipe_id, sort_order, added_at)
      select 'col' || f, recipe_id, k, at from (${pairs(shape, shape.bookmarks, 71, 1013)}) p`,
    `insert into comments (id, recipe_id, user_id, root_id, depth, content, created_at, updated_at)
      select 'c' || i, 'r' || ((i::bigint * 7919) % ${recipes}), 'u' || (i % ${shape.fans}), 'c' || i, 0,
        'Made this twice, the second time with extra ' || (${PANTRY})[1 + i % 16] || '.',
        ${T0} + (i % ${recipes}) * interval '1 minute' + interval '2 days', ${T0} + (i % ${recipes}) * interval '1 minute' + interval '2 days'
      from generate_series(0, ${shape.comments - 1}) i`
  ]
}

/** The counters the service keeps in step with the rows, computed once from the rows after the inserts. */
export const COUNTERS = `update recipes r set like_count = coalesce(l.n, 0), rating_count = coalesce(rt.n, 0), rating_sum = coalesce(rt.s, 0),
        comment_count = coalesce(c.n, 0)
      from recipes x
      left join (select recipe_id, count(*)::int as n from likes group by recipe_id) l on l.recipe_id = x.id
      left join (select recipe_id, count(*)::int as n, sum(rating)::int as s from ratings group by recipe_id) rt on rt.recipe_id = x.id
      left join (select recipe_id, count(*)::int as n from comments group by recipe_id) c on c.recipe_id = x.id
      where r.id = x.id`

/** Tables the seed fills: their secondary indexes are dropped during the load and rebuilt after it. */
export const SEEDED_TABLES = ['users', 'recipes', 'follows', 'ratings', 'likes', 'bookmarks', 'collections', 'collection_items', 'comments']
