import { boolean, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { createdAt, id, timestamptz, updatedAt } from './columns.js'
import { users } from './users.js'

/**
 * Limits per plan; null means unlimited. `aiGenerations` and `imports` count per calendar month. `familyMembers` caps
 * the members of a family this plan's user owns (null or absent: no plan cap; the families service keeps an absolute
 * bound of its own).
 */
export interface PlanLimits { recipes: number | null, aiGenerations: number | null, imports: number | null, familyMembers?: number | null }

export const plans = pgTable('plans', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description'),
  /** Cents per month. */
  priceMonthly: integer('price_monthly').notNull().default(0),
  currency: text('currency').notNull().default('USD'),
  limits: jsonb('limits').$type<PlanLimits>().notNull(),
  features: jsonb('features').$type<string[]>().notNull().default([]),
  sortOrder: integer('sort_order').notNull().default(0),
  active: boolean('active').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt()
})

export const subscriptions = pgTable('subscriptions', {
  id: id(),
  userId: text('user_id').notNull().unique().references(() => users.id, { onDelete: 'cascade' }),
  planId: text('plan_id').notNull(),
  status: text('status').$type<'active' | 'cancelled'>().notNull().default('active'),
  startedAt: timestamptz('started_at').notNull().defaultNow(),
  endsAt: timestamptz('ends_at'),
  updatedAt: updatedAt()
})

/** Monthly usage counters (period = YYYY-MM), incremented in the transaction that uses the allowance. */
export const usage = pgTable('usage', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind').$type<'aiGenerations' | 'imports'>().notNull(),
  period: text('period').notNull(),
  count: integer('count').notNull().default(0)
}, t => [
  primaryKey({ columns: [t.userId, t.kind, t.period] }),
  // Usage per month across users (admin analytics).
  index('usage_period_kind_idx').on(t.period, t.kind)
])

export const featureFlags = pgTable('feature_flags', {
  key: text('key').primaryKey(),
  description: text('description'),
  enabled: boolean('enabled').notNull().default(true),
  /** Plans that get the feature; null means every plan. */
  plans: jsonb('plans').$type<string[] | null>(),
  /** 0-100: share of users (stable per user) that get it. */
  rolloutPercentage: integer('rollout_percentage').notNull().default(100),
  /** Users who always get it, whatever the rest says. */
  userIds: jsonb('user_ids').$type<string[]>().notNull().default([]),
  updatedAt: updatedAt()
})
