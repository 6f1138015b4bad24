import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core'
import { createdAt, id, timestamptz, updatedAt } from './columns.js'
import { adminUsers } from './admin.js'
import { recipes } from './recipes.js'
import { users } from './users.js'

export const cookedRecipes = pgTable('cooked_recipes', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  recipeId: text('recipe_id').notNull().references(() => recipes.id, { onDelete: 'cascade' }),
  createdAt: createdAt()
}, t => [primaryKey({ columns: [t.userId, t.recipeId] }), index('cooked_user_created_idx').on(t.userId, t.createdAt)])

export const NOTIFICATION_TYPES = ['like', 'comment', 'reply', 'follow', 'rating', 'new_recipe', 'family_invite', 'meal_plan_shared', 'system'] as const

export const notifications = pgTable('notifications', {
  id: id(),
  /** The recipient. */
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  actorId: text('actor_id').references(() => users.id, { onDelete: 'cascade' }),
  type: text('type').$type<typeof NOTIFICATION_TYPES[number]>().notNull(),
  recipeId: text('recipe_id').references(() => recipes.id, { onDelete: 'cascade' }),
  message: text('message').notNull(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  read: boolean('read').notNull().default(false),
  createdAt: createdAt()
}, t => [
  index('notifications_user_created_idx').on(t.userId, t.createdAt),
  index('notifications_user_unread_idx').on(t.userId).where(sql`not ${t.read}`),
  // Deleting a user (the foreign key's cascade, and data deletion) finds the notifications they caused.
  index('notifications_actor_idx').on(t.actorId)
])

export const collections = pgTable('collections', {
  id: id(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  slug: text('slug').notNull(),
  description: text('description'),
  isPublic: boolean('is_public').notNull().default(false),
  /** `saved` is the Saved Recipes collection bookmarks fill (one per user, cannot be deleted). */
  type: text('type').$type<'custom' | 'saved'>().notNull().default('custom'),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, t => [
  uniqueIndex('collections_user_slug_key').on(t.userId, t.slug),
  uniqueIndex('collections_one_saved_key').on(t.userId).where(sql`${t.type} = 'saved'`)
])

export const collectionItems = pgTable('collection_items', {
  collectionId: text('collection_id').notNull().references(() => collections.id, { onDelete: 'cascade' }),
  recipeId: text('recipe_id').notNull().references(() => recipes.id, { onDelete: 'cascade' }),
  sortOrder: integer('sort_order').notNull().default(0),
  addedAt: timestamptz('added_at').notNull().defaultNow()
}, t => [
  primaryKey({ columns: [t.collectionId, t.recipeId] }),
  index('collection_items_recipe_idx').on(t.recipeId),
  // A collection's recipes are paged in this order.
  index('collection_items_order_idx').on(t.collectionId, t.sortOrder, t.addedAt, t.recipeId)
])

/**
 * How deep a thread nests: top-level comments have depth 0, replies 1..MAX_REPLY_DEPTH. A reply to a comment at
 * the maximum depth is filed next to it (under the same parent), so no thread grows deeper than this.
 */
export const MAX_REPLY_DEPTH = 3

export const comments = pgTable('comments', {
  id: id(),
  recipeId: text('recipe_id').notNull().references(() => recipes.id, { onDelete: 'cascade' }),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  parentId: text('parent_id').references((): AnyPgColumn => comments.id, { onDelete: 'cascade' }),
  /** The top-level comment of the thread (itself for a top-level comment): a page of threads is read in one query. */
  rootId: text('root_id').notNull().references((): AnyPgColumn => comments.id, { onDelete: 'cascade' }),
  /** 0 for a top-level comment, at most MAX_REPLY_DEPTH. */
  depth: smallint('depth').notNull().default(0),
  content: text('content').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, t => [
  index('comments_recipe_created_idx').on(t.recipeId, t.createdAt),
  index('comments_parent_idx').on(t.parentId),
  // An author's comments (admin user detail, data export, account erasure).
  index('comments_user_idx').on(t.userId),
  index('comments_created_brin_idx').using('brin', t.createdAt),
  index('comments_root_created_idx').on(t.rootId, t.createdAt, t.id),
  // Top-level comments of a recipe, in page order.
  index('comments_recipe_top_idx').on(t.recipeId, t.createdAt, t.id).where(sql`${t.parentId} is null`),
  check('comments_depth_range', sql`${t.depth} between 0 and ${sql.raw(String(MAX_REPLY_DEPTH))}`)
])

export const REPORT_TYPES = ['recipe', 'comment', 'user'] as const
export const REPORT_STATUSES = ['pending', 'reviewed', 'resolved'] as const

export const reports = pgTable('reports', {
  id: id(),
  reporterId: text('reporter_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  type: text('type').$type<typeof REPORT_TYPES[number]>().notNull(),
  /** Untyped reference: `type` says which table it points into. */
  targetId: text('target_id').notNull(),
  reason: text('reason').notNull(),
  details: text('details'),
  status: text('status').$type<typeof REPORT_STATUSES[number]>().notNull().default('pending'),
  /** What the reviewing admin found or did (free text), and the action taken on the target, if any. */
  resolution: text('resolution'),
  action: text('action'),
  reviewedBy: text('reviewed_by').references(() => adminUsers.id, { onDelete: 'set null' }),
  reviewedAt: timestamptz('reviewed_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, t => [
  index('reports_reporter_idx').on(t.reporterId),
  index('reports_target_idx').on(t.targetId, t.type),
  // One open report per reporter and target.
  uniqueIndex('reports_open_key').on(t.reporterId, t.type, t.targetId).where(sql`${t.status} <> 'resolved'`),
  index('reports_status_idx').on(t.status, t.createdAt)
])
