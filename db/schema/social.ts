import { sql } from 'drizzle-orm'
import { boolean, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { createdAt, id } from './columns.js'
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
