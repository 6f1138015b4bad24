import { sql } from 'drizzle-orm'
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, id, timestamptz, updatedAt } from './columns.js'
import { users } from './users.js'

export const RECIPE_TYPES = ['food', 'drink'] as const
export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const
export const VISIBILITIES = ['public', 'private', 'friends', 'custom'] as const
export const MODERATION_STATUSES = ['pending', 'approved', 'flagged', 'rejected'] as const
/** Statuses shown to everyone but the author; `flagged` and `rejected` are hidden from all others. */
export const LISTED_MODERATION = ['approved', 'pending'] as const satisfies ReadonlyArray<typeof MODERATION_STATUSES[number]>
/** Revisions kept per recipe: the oldest are dropped beyond this. */
export const MAX_REVISIONS = 50

const oneOf = (values: readonly string[]) => sql.raw(values.map(v => `'${v}'`).join(', '))

export const recipes = pgTable('recipes', {
  id: id(),
  authorId: text('author_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  slug: text('slug').notNull(),
  title: text('title').notNull(),
  description: text('description'),
  type: text('type').$type<typeof RECIPE_TYPES[number]>().notNull().default('food'),
  difficulty: text('difficulty').$type<typeof DIFFICULTIES[number]>().notNull().default('medium'),
  visibility: text('visibility').$type<typeof VISIBILITIES[number]>().notNull().default('public'),
  published: boolean('published').notNull().default(true),
  moderationStatus: text('moderation_status').$type<typeof MODERATION_STATUSES[number]>().notNull().default('approved'),
  /**
   * The author is deactivated or banned: their recipes are hidden from everyone else (decisions.md). Kept by triggers
   * (migration 0029): the users update that hides or restores the author sets it on all their recipes in its own
   * statement, and a recipe inserted for a hidden author starts hidden. A column, not a join, so the listing stays one
   * index walk.
   */
  authorHidden: boolean('author_hidden').notNull().default(false),
  /** The moderator's note on the last moderation decision (shown to admins only). */
  moderationNote: text('moderation_note'),
  moderatedAt: timestamptz('moderated_at'),
  cuisine: text('cuisine'),
  prepTime: integer('prep_time'),
  cookTime: integer('cook_time'),
  totalTime: integer('total_time'),
  servings: integer('servings'),
  ingredients: jsonb('ingredients').$type<unknown[]>().notNull().default([]),
  instructions: jsonb('instructions').$type<unknown[]>().notNull().default([]),
  nutrition: jsonb('nutrition').$type<Record<string, unknown>>(),
  imageUrl: text('image_url'),
  sourceUrl: text('source_url'),
  /**
   * The image address an imported recipe's page gave. `imageUrl` is then our stored copy of it (or null when it could
   * not be copied): kept for credit and provenance, never shown as the picture.
   */
  sourceImageUrl: text('source_image_url'),
  /** Lower-cased ingredient lines, maintained on write: what ingredient search matches (trigram-indexed). */
  ingredientsText: text('ingredients_text').notNull().default(''),
  /**
   * The match key of each ingredient, in the order of `ingredients` ('' for one without letters or digits): its name
   * (its line when the name is empty) lower-cased, accents folded, punctuation dropped, each word singular.
   * Computed by PostgreSQL (`recipe_ingredient_names`, migration 0023; words made singular by `ingredient_singular`,
   * generated from lib/ingredient-vocabulary.ts in migration 0034), which also normalises the search terms of
   * POST /api/ai-recipes/search-by-ingredients.
   */
  ingredientNames: text('ingredient_names').array().notNull().generatedAlwaysAs(sql`recipe_ingredient_names(ingredients)`),
  /** The distinct words of `ingredientNames`: what the ingredient search's word index looks up. */
  ingredientWords: text('ingredient_words').array().notNull().generatedAlwaysAs(sql`ingredient_name_words(recipe_ingredient_names(ingredients))`),
  // Counters kept exact in the same transaction as the rows they count, so lists never aggregate per request.
  likeCount: integer('like_count').notNull().default(0),
  commentCount: integer('comment_count').notNull().default(0),
  ratingCount: integer('rating_count').notNull().default(0),
  ratingSum: integer('rating_sum').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, t => [
  uniqueIndex('recipes_author_slug_key').on(t.authorId, t.slug),
  index('recipes_created_at_idx').on(t.createdAt, t.id),
  // Every search scans a GIN index's pending list, and every non-HOT update of a recipe adds to it: a 256 kB list
  // instead of the 4 MB default keeps that scan short (bench/README.md).
  index('recipes_title_trgm_idx').using('gin', sql`lower(${t.title}) gin_trgm_ops`).with({ gin_pending_list_limit: 256 }),
  index('recipes_ingredients_trgm_idx').using('gin', t.ingredientsText.op('gin_trgm_ops')).with({ gin_pending_list_limit: 256 }),
  index('recipes_author_created_idx').on(t.authorId, t.createdAt, t.id),
  // The moderation queue (admin recipe list by status); approved recipes, the bulk, are not in it.
  index('recipes_moderation_idx').on(t.moderationStatus, t.createdAt, t.id).where(sql`${t.moderationStatus} <> 'approved'`),
  // The public listing: published, listed moderation status, public visibility.
  index('recipes_listed_idx').on(t.createdAt, t.id).where(sql`${t.published} and ${t.visibility} = 'public' and ${t.moderationStatus} in (${oneOf(LISTED_MODERATION)})`),
  // No index reads like_count (the popular order is recipe_popularity's), so a like is a HOT update.
  // Search by ingredients (a 256 kB pending list, as for the trigram indexes): listed recipes by ingredient word, and
  // by the word pairs of their two least common ingredients (every recipe a list of ingredients covers completely).
  index('recipes_ingredient_words_idx').using('gin', t.ingredientWords).with({ gin_pending_list_limit: 256 })
    .where(sql`${t.published} and ${t.visibility} = 'public' and ${t.moderationStatus} in (${oneOf(LISTED_MODERATION)})`),
  index('recipes_ingredient_pairs_idx').using('gin', sql`ingredient_name_pairs(${t.ingredientNames})`).with({ gin_pending_list_limit: 256 })
    .where(sql`${t.published} and ${t.visibility} = 'public' and ${t.moderationStatus} in (${oneOf(LISTED_MODERATION)})`),
  check('recipes_type_check', sql`${t.type} in (${oneOf(RECIPE_TYPES)})`),
  check('recipes_difficulty_check', sql`${t.difficulty} in (${oneOf(DIFFICULTIES)})`),
  check('recipes_visibility_check', sql`${t.visibility} in (${oneOf(VISIBILITIES)})`),
  check('recipes_moderation_check', sql`${t.moderationStatus} in (${oneOf(MODERATION_STATUSES)})`),
  check('recipes_counters_check', sql`${t.likeCount} >= 0 and ${t.commentCount} >= 0 and ${t.ratingCount} >= 0`)
])

/**
 * The popular order (most liked first) of every recipe, kept beside it by triggers (migration 0024) in the statement
 * that moves its like count. An index on recipes.like_count made every like a non-HOT update of recipes: a new entry
 * in each of its indexes, four of them GIN (trigrams of the title and ingredients); here a like updates a narrow row
 * with two small indexes, and the recipe itself in place. `listed` is listedRecipe's condition.
 */
export const recipePopularity = pgTable('recipe_popularity', {
  recipeId: text('recipe_id').primaryKey().references(() => recipes.id, { onDelete: 'cascade' }),
  likeCount: integer('like_count').notNull(),
  createdAt: timestamptz('created_at').notNull(),
  listed: boolean('listed').notNull()
}, t => [
  index('recipe_popularity_listed_idx').on(t.likeCount, t.createdAt, t.recipeId).where(sql`${t.listed}`)
])

/**
 * One row kept by triggers (migration 0011): how many recipes the public listing holds, exact under any write, and a
 * version that moves whenever anything a listing filter reads changes (membership, title, ingredients, filters, tags,
 * usernames). Filtered totals are cached per version, so a cached total is never older than the data.
 */
export const recipeListing = pgTable('recipe_listing', {
  id: boolean('id').primaryKey().default(true),
  listedCount: bigint('listed_count', { mode: 'number' }).notNull().default(0),
  version: bigint('version', { mode: 'number' }).notNull().default(0)
}, t => [check('recipe_listing_one_row', sql`${t.id}`)])

export const tags = pgTable('tags', {
  id: id(),
  name: text('name').notNull(),
  slug: text('slug').notNull(),
  createdAt: createdAt()
}, t => [
  uniqueIndex('tags_name_key').on(t.name),
  uniqueIndex('tags_slug_key').on(t.slug)
])

export const recipeTags = pgTable('recipe_tags', {
  recipeId: text('recipe_id').notNull().references(() => recipes.id, { onDelete: 'cascade' }),
  tagId: text('tag_id').notNull().references(() => tags.id, { onDelete: 'cascade' })
}, t => [
  primaryKey({ columns: [t.recipeId, t.tagId] }),
  index('recipe_tags_tag_idx').on(t.tagId)
])

/** Who may see a `custom` recipe besides its author. */
export const recipeAudience = pgTable('recipe_audience', {
  recipeId: text('recipe_id').notNull().references(() => recipes.id, { onDelete: 'cascade' }),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' })
}, t => [
  primaryKey({ columns: [t.recipeId, t.userId] }),
  index('recipe_audience_user_idx').on(t.userId)
])

/** The previous version of a recipe, kept on every update. */
export const recipeRevisions = pgTable('recipe_revisions', {
  id: id(),
  recipeId: text('recipe_id').notNull().references(() => recipes.id, { onDelete: 'cascade' }),
  version: integer('version').notNull(),
  snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
  editorId: text('editor_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt()
}, t => [
  uniqueIndex('recipe_revisions_version_key').on(t.recipeId, t.version)
])

export const likes = pgTable('likes', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  recipeId: text('recipe_id').notNull().references(() => recipes.id, { onDelete: 'cascade' }),
  createdAt: createdAt()
}, t => [
  primaryKey({ columns: [t.userId, t.recipeId] }),
  index('likes_recipe_idx').on(t.recipeId),
  // Admin analytics count the last 30 days: BRIN on an append-ordered timestamp is a few kB and nearly free to maintain.
  index('likes_created_brin_idx').using('brin', t.createdAt)
])

export const bookmarks = pgTable('bookmarks', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  recipeId: text('recipe_id').notNull().references(() => recipes.id, { onDelete: 'cascade' }),
  createdAt: createdAt()
}, t => [
  primaryKey({ columns: [t.userId, t.recipeId] }),
  index('bookmarks_recipe_idx').on(t.recipeId),
  index('bookmarks_created_brin_idx').using('brin', t.createdAt)
])

export const ratings = pgTable('ratings', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  recipeId: text('recipe_id').notNull().references(() => recipes.id, { onDelete: 'cascade' }),
  rating: integer('rating').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, t => [
  primaryKey({ columns: [t.userId, t.recipeId] }),
  index('ratings_recipe_idx').on(t.recipeId),
  index('ratings_created_brin_idx').using('brin', t.createdAt),
  check('ratings_range', sql`${t.rating} between 1 and 5`)
])

export const IMPORT_SOURCES = ['url', 'html', 'preview', 'text', 'image', 'legacy'] as const
export const IMPORT_STATUSES = ['success', 'failed', 'refused'] as const

/** One row per import attempt (support and analytics): what was imported, how it went and how long it took. */
export const importLogs = pgTable('import_logs', {
  id: id(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  /** Which route: a URL fetched, captured HTML, a preview, pasted text, an image, the legacy route. */
  source: text('source').$type<typeof IMPORT_SOURCES[number]>().notNull(),
  /** Whether it was a preview (nothing created) or a creation. */
  mode: text('mode').$type<'preview' | 'create'>().notNull(),
  url: text('url'),
  status: text('status').$type<typeof IMPORT_STATUSES[number]>().notNull(),
  error: text('error'),
  recipeId: text('recipe_id').references(() => recipes.id, { onDelete: 'set null' }),
  /** How the page was read: `json-ld`, `microdata`, `heuristics`, `browser+json-ld`, `text`, `ocr`... */
  method: text('method'),
  durationMs: integer('duration_ms').notNull(),
  createdAt: createdAt()
}, t => [
  index('import_logs_user_idx').on(t.userId, t.createdAt),
  index('import_logs_created_brin_idx').using('brin', t.createdAt)
])

/**
 * What made a recipe, keyed per author: an import of one page or text, an AI request. A repeated or concurrent
 * identical request finds the key in the creating transaction (the author's row is locked) and gets the recipe it
 * made instead of a copy. The row goes with the recipe.
 */
export const recipeCreationKeys = pgTable('recipe_creation_keys', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  /** `import:<source key or content hash>`, `ai:<request hash>`: at most 200 characters. */
  key: text('key').notNull(),
  recipeId: text('recipe_id').notNull().references(() => recipes.id, { onDelete: 'cascade' }),
  createdAt: createdAt()
}, t => [
  primaryKey({ columns: [t.userId, t.key] }),
  index('recipe_creation_keys_recipe_idx').on(t.recipeId)
])

export const AI_GENERATION_STATUSES = ['pending', 'success', 'failed', 'refused'] as const

/** One row per AI generation request: the log of decisions.md (user, prompt, model, tokens, latency, status, error). */
export const aiGenerations = pgTable('ai_generations', {
  id: id(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  /** The request as given (prompt, ingredients, cuisine, type, dietary, servings), bounded by the route schema. */
  request: jsonb('request').$type<Record<string, unknown>>().notNull(),
  prompt: text('prompt'),
  model: text('model'),
  status: text('status').$type<typeof AI_GENERATION_STATUSES[number]>().notNull(),
  error: text('error'),
  recipeId: text('recipe_id').references(() => recipes.id, { onDelete: 'set null' }),
  promptTokens: integer('prompt_tokens'),
  completionTokens: integer('completion_tokens'),
  totalTokens: integer('total_tokens'),
  /** Provider calls made (a repair or grounding retry makes two). */
  attempts: integer('attempts').notNull().default(0),
  latencyMs: integer('latency_ms'),
  /** Hash of the request: one identical request in flight per user (the partial unique index). */
  requestKey: text('request_key').notNull(),
  /** The month whose allowance this pending generation holds (null once given back or kept). */
  allowancePeriod: text('allowance_period'),
  createdAt: createdAt(),
  finishedAt: timestamptz('finished_at')
}, t => [
  index('ai_generations_user_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
  uniqueIndex('ai_generations_pending_idx').on(t.userId, t.requestKey).where(sql`status = 'pending'`),
  index('ai_generations_pending_created_idx').on(t.createdAt).where(sql`status = 'pending'`),
  index('ai_generations_created_brin_idx').using('brin', t.createdAt)
])
