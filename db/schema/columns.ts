// Column helpers shared by every table.
import { createId } from '@paralleldrive/cuid2'
import { text, timestamp } from 'drizzle-orm/pg-core'

export const id = () => text('id').primaryKey().$defaultFn(() => createId())

export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

export const createdAt = () => timestamptz('created_at').notNull().defaultNow()

export const updatedAt = () => timestamptz('updated_at').notNull().defaultNow().$onUpdate(() => new Date())
