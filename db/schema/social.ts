import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core'
import { createdAt, id, timestamptz, updatedAt } from './columns.js'
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
  index('notifications_user_unread_idx').on(t.userId).where(sql`not ${t.read}`)
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
}, t => [primaryKey({ columns: [t.collectionId, t.recipeId] }), index('collection_items_recipe_idx').on(t.recipeId)])

export const comments = pgTable('comments', {
  id: id(),
  recipeId: text('recipe_id').notNull().references(() => recipes.id, { onDelete: 'cascade' }),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  parentId: text('parent_id').references((): AnyPgColumn => comments.id, { onDelete: 'cascade' }),
  content: text('content').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, t => [
  index('comments_recipe_created_idx').on(t.recipeId, t.createdAt),
  index('comments_parent_idx').on(t.parentId)
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
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, t => [
  // One open report per reporter and target.
  uniqueIndex('reports_open_key').on(t.reporterId, t.type, t.targetId).where(sql`${t.status} <> 'resolved'`),
  index('reports_status_idx').on(t.status, t.createdAt)
])
