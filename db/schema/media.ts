import { sql } from 'drizzle-orm'
import { check, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, id } from './columns.js'
import { users } from './users.js'

export const MEDIA_KINDS = ['image', 'avatar'] as const

/**
 * One row per stored file: the database's reference to it (lib/storage.ts holds the bytes). A file without a row
 * is removed by the upload that wrote it; a row is removed before or with its file.
 */
export const media = pgTable('media', {
  id: id(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind').$type<typeof MEDIA_KINDS[number]>().notNull(),
  /** `uploads/<userId>/<id>.webp` */
  key: text('key').notNull(),
  contentType: text('content_type').$type<'image/webp'>().notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  /** Bytes stored. */
  size: integer('size').notNull(),
  /** sha256 of the bytes as sent: the same picture sent twice is stored once. */
  sourceHash: text('source_hash').notNull(),
  createdAt: createdAt()
}, t => [
  uniqueIndex('media_key_idx').on(t.key),
  uniqueIndex('media_user_kind_source_idx').on(t.userId, t.kind, t.sourceHash),
  check('media_kind_check', sql`${t.kind} in ('image', 'avatar')`)
])
