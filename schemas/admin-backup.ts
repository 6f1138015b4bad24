// Database backups (admin): the backup file's name and shape, and the routes' bodies.
import { Type, type Static } from 'typebox'
import { DateTime, Pagination, PaginationQuery, ref } from './common.js'

/** `backup-<ISO 8601 UTC instant, with - for :>.json`, e.g. `backup-2026-11-23T10-15-30.123Z.json`; nothing else is a backup. */
export const BACKUP_FILENAME = /^backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(\.\d{3})?Z\.json$/
export const BACKUP_FORMAT = 'recipe-platform-backup/1'

/** The tables a backup holds, in the order the file lists them (keys of `tables`, named as in the database). */
export const BACKUP_TABLES = ['users', 'recipes', 'tags', 'recipe_tags', 'comments', 'likes', 'ratings', 'follows'] as const
export type BackupTable = typeof BACKUP_TABLES[number]

const Filename = Type.String({
  pattern: BACKUP_FILENAME.source,
  maxLength: 64,
  description: '`backup-<YYYY-MM-DDTHH-mm-ss.sssZ>.json`, as the list shows it'
})

export const BackupParams = Type.Object({ filename: Filename })

export const BackupListQuery = Type.Object({
  ...PaginationQuery.properties,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 })
})

const Count = Type.Integer({ minimum: 0 })
const RowCounts = Type.Object({
  users: Count, recipes: Count, tags: Count, recipe_tags: Count, comments: Count, likes: Count, ratings: Count, follows: Count
} satisfies Record<BackupTable, typeof Count>, { description: 'Rows written per table' })

export const BackupFile = Type.Object({
  filename: Filename,
  size: Type.Integer({ minimum: 0, description: 'Bytes' }),
  createdAt: Type.String({ format: 'date-time', description: 'When the backup was started: the instant its snapshot shows (from the file name)' })
}, { $id: 'BackupFile', description: 'A backup file on the server' })
export type BackupFileView = Static<typeof BackupFile>

export const BackupCreated = Type.Object({
  backup: Type.Object({ ...BackupFile.properties, tables: RowCounts })
}, { description: 'The backup, written completely' })
export type BackupCreatedView = Static<typeof BackupCreated>['backup']

export const BackupList = Type.Object({
  backups: Type.Array(ref(BackupFile)),
  pagination: ref(Pagination)
}, { description: 'Backup files, newest first' })

const Row = (description: string) => Type.Array(Type.Record(Type.String(), Type.Unknown()), { description })

/**
 * The file's content: one JSON document (the download sends the file as it is). Tables and their rows are as the
 * database holds them: each row an object keyed by its table's column names (snake_case), values as stored
 * (timestamps ISO 8601 with microseconds and offset, jsonb as JSON). Users leave out every secret column.
 */
export const BackupDocument = Type.Object({
  format: Type.Literal(BACKUP_FORMAT),
  createdAt: DateTime,
  tables: Type.Object({
    users: Row('Users without any secret: no password, reset_token, reset_token_expiry, token_version, ' +
      'failed_login_attempts or oauth_id'),
    recipes: Row('Every recipe (any visibility, draft or published, any moderation status) with its counters'),
    tags: Row('Tags'),
    recipe_tags: Row('Recipe-tag pairs: recipe_id, tag_id'),
    comments: Row('Comments and replies'),
    likes: Row('Likes: user_id, recipe_id, created_at'),
    ratings: Row('Ratings: user_id, recipe_id, rating, created_at, updated_at'),
    follows: Row('Follows: follower_id, following_id, created_at')
  })
}, { $id: 'BackupDocument', description: 'A database backup: eight tables from one consistent snapshot' })
