// The import log and the lookups imports need (the caller's recipes from the same page).
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { importLogs, recipes } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'
import { escapeLike } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    importsRepository: typeof importsRepository
  }
}

export type ImportLogEntry = Omit<typeof importLogs.$inferInsert, 'id' | 'createdAt'>

type Recipe = typeof recipes.$inferSelect
export type SourceMatch = Pick<Recipe, 'id' | 'title' | 'slug' | 'createdAt'> & { sourceUrl: NonNullable<Recipe['sourceUrl']> }

export const importsRepository = {
  async log (db: Db, entry: ImportLogEntry): Promise<void> {
    await db`insert into import_logs ${db({ id: createId(), ...entry })}`
  },

  /** The author's recipes whose source URL contains `fragment` (host and path), newest first, at most `limit`. */
  async recipesFromSource (db: Db, authorId: string, fragment: string, limit: number): Promise<SourceMatch[]> {
    return await db<SourceMatch[]>`
      select id, title, slug, source_url, created_at from recipes
      where author_id = ${authorId} and source_url ilike ${'%' + escapeLike(fragment) + '%'}
      order by created_at desc limit ${limit}`
  }
}

export default fp(async fastify => {
  fastify.decorate('importsRepository', importsRepository)
}, { name: 'imports-repository' })
