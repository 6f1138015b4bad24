// The database backup's reads (services/backup.ts writes the file): the snapshot and its lock, then the eight tables,
// each through a cursor, a batch at a time, so memory holds one batch whatever the size of a table. The caller reads
// the tables one after another on the snapshot's connection (a second query on it would wait behind an open cursor).
// PostgreSQL writes each row's JSON (`row_to_json`): keys are the table's column names, values as stored (timestamps
// ISO 8601 with microseconds, jsonb as JSON), and the service only joins the texts. Users are read through an explicit
// list of columns, so no secret is ever selected (password, reset_token, reset_token_expiry, token_version,
// failed_login_attempts, oauth_id), nor a column added later until it is listed here; the other tables are backed up
// whole (every column, present and future).
import fp from 'fastify-plugin'
import type postgres from 'postgres'
import type { BackupTable } from '../../../schemas/admin-backup.js'
import type { Db } from '../../external/db.js'
import type { Flagged } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    backupRepository: typeof backupRepository
  }
}

/** Rows per cursor fetch. Recipes carry their description, ingredients and instructions, so they come fewer at a time. */
const BATCH = 1000
const RECIPE_BATCH = 200

/** A row as PostgreSQL wrote it: `row_to_json(...)::text`. */
type JsonRow = Record<'json', string>

/** Whether the backup lock was taken, and the snapshot's instant (`statement_timestamp()`). */
type SnapshotStart = Flagged<'locked'> & Record<'at', Date>

/** The JSON texts of a query's rows (its one column, `json`), fetched `batch` at a time. */
async function * rows (query: postgres.PendingQuery<JsonRow[]>, batch = BATCH): AsyncGenerator<string> {
  for await (const page of query.cursor(batch)) for (const row of page) yield row.json
}

export const backupRepository = {
  /**
   * Makes the caller's transaction (before its first query) a read-only repeatable-read snapshot, then takes the backup
   * lock for the rest of it. The lock is an advisory lock of the two-key space (apart from the single-key
   * `hashtext(...)` locks other services take), so one backup runs at a time across every instance on this database.
   * Null when another transaction holds it; otherwise the instant the snapshot was taken.
   */
  async startSnapshot (tx: Db): Promise<Date | null> {
    await tx.unsafe('set transaction isolation level repeatable read, read only')
    const [row] = await tx<SnapshotStart[]>`
      select pg_try_advisory_xact_lock(hashtext('recipe-platform'), hashtext('admin:database-backup')) as locked,
        statement_timestamp() as at`
    return row.locked ? row.at : null
  },

  /** The tables in the file's order, each row as JSON text; each query runs when its turn comes (the generators are lazy). */
  tables: (db: Db): Array<[BackupTable, AsyncIterable<string>]> => [
    ['users', rows(db<JsonRow[]>`
      select row_to_json(u)::text as json from (
        select id, email, username, username_key, first_name, last_name, bio, location, avatar_url, active, verified,
          email_verified_at, oauth_provider, password_changed_at, locked_at, banned_at, ban_reason, last_login_at,
          email_preferences, do_not_sell_at, plan_id, follower_count, following_count, created_at, updated_at
        from users
      ) u order by u.id`)],
    ['recipes', rows(db<JsonRow[]>`select row_to_json(r)::text as json from recipes r order by r.id`, RECIPE_BATCH)],
    ['tags', rows(db<JsonRow[]>`select row_to_json(t)::text as json from tags t order by t.id`)],
    ['recipe_tags', rows(db<JsonRow[]>`select row_to_json(rt)::text as json from recipe_tags rt order by rt.recipe_id, rt.tag_id`)],
    ['comments', rows(db<JsonRow[]>`select row_to_json(c)::text as json from comments c order by c.id`)],
    ['likes', rows(db<JsonRow[]>`select row_to_json(l)::text as json from likes l order by l.user_id, l.recipe_id`)],
    ['ratings', rows(db<JsonRow[]>`select row_to_json(ra)::text as json from ratings ra order by ra.user_id, ra.recipe_id`)],
    ['follows', rows(db<JsonRow[]>`select row_to_json(f)::text as json from follows f order by f.follower_id, f.following_id`)]
  ]
}

export default fp(async fastify => {
  fastify.decorate('backupRepository', backupRepository)
}, { name: 'backup-repository' })
