// Stored files (the media table): the database's reference to every uploaded image and avatar.
import fp from 'fastify-plugin'
import type { media } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'
import type { Counted } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    mediaRepository: typeof mediaRepository
  }
}

export type MediaRow = typeof media.$inferSelect
export type MediaKind = MediaRow['kind']
export type NewMedia = Omit<MediaRow, 'createdAt'>

export const mediaRepository = {
  /** Inserts the row; null when the user already stored this picture as this kind (nothing inserted). */
  async insert (db: Db, row: NewMedia): Promise<MediaRow | null> {
    const [inserted] = await db<MediaRow[]>`
      insert into media ${db(row)}
      on conflict (user_id, kind, source_hash) do nothing
      returning *`
    return inserted ?? null
  },

  async bySource (db: Db, userId: string, kind: MediaKind, sourceHash: string): Promise<MediaRow | null> {
    const [row] = await db<MediaRow[]>`select * from media where user_id = ${userId} and kind = ${kind} and source_hash = ${sourceHash}`
    return row ?? null
  },

  async byKey (db: Db, userId: string, kind: MediaKind, key: string): Promise<MediaRow | null> {
    const [row] = await db<MediaRow[]>`select * from media where key = ${key} and user_id = ${userId} and kind = ${kind}`
    return row ?? null
  },

  /**
   * Whether the user stored this file, holding the row until the caller's transaction ends: a delete of the file
   * waits, then sees (and clears) whatever reference the caller wrote.
   */
  async hold (db: Db, userId: string, kind: MediaKind, key: string): Promise<boolean> {
    const rows = await db`select 1 from media where key = ${key} and user_id = ${userId} and kind = ${kind} for share`
    return rows.length > 0
  },

  async count (db: Db, userId: string, kind: MediaKind): Promise<number> {
    const [{ n }] = await db<Array<Counted<'n'>>>`select count(*)::int as n from media where user_id = ${userId} and kind = ${kind}`
    return n
  },

  /** Deletes the rows of `kind` of the user except `keep`; returns their keys (the files to remove). */
  async removeAllBut (db: Db, userId: string, kind: MediaKind, keep: string | null): Promise<string[]> {
    const rows = await db<Array<Pick<MediaRow, 'key'>>>`
      delete from media where user_id = ${userId} and kind = ${kind} and key is distinct from ${keep} returning key`
    return rows.map(row => row.key)
  },

  async remove (db: Db, id: string): Promise<void> {
    await db`delete from media where id = ${id}`
  }
}

export default fp(async fastify => {
  fastify.decorate('mediaRepository', mediaRepository)
}, { name: 'media-repository' })
