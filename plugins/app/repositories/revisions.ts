// Earlier versions of recipes: a snapshot per update, at most MAX_REVISIONS per recipe (the oldest go first).
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import { MAX_REVISIONS, type recipeRevisions } from '../../../db/schema/index.js'
import type { RecipeView, RevisionView } from '../../../schemas/recipes.js'
import { json, type Db } from '../../external/db.js'
import type { Page } from './recipes.js'
import type { Counted } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    revisionsRepository: typeof revisionsRepository
  }
}

type RevisionRow = Pick<typeof recipeRevisions.$inferSelect, 'id' | 'version' | 'editorId' | 'createdAt'>
/** A snapshot as stored: those taken before migration 0031 have no sourceImageUrl. */
type StoredSnapshot = Omit<RecipeView, 'sourceImageUrl'> & Partial<Pick<RecipeView, 'sourceImageUrl'>>

const view = (row: RevisionRow): RevisionView => ({ id: row.id, version: row.version, editorId: row.editorId, createdAt: row.createdAt.toISOString() })

export const revisionsRepository = {
  /** Keeps `snapshot` as the next version (call with the recipe locked) and drops versions beyond the cap. */
  async add (db: Db, recipeId: string, editorId: string, snapshot: RecipeView): Promise<void> {
    await db`insert into recipe_revisions (id, recipe_id, version, snapshot, editor_id)
      values (${createId()}, ${recipeId},
        (select coalesce(max(version), 0) + 1 from recipe_revisions where recipe_id = ${recipeId}),
        ${json(db, snapshot)}, ${editorId})`
    await db`delete from recipe_revisions where recipe_id = ${recipeId} and version <= (
      select max(version) - ${MAX_REVISIONS} from recipe_revisions where recipe_id = ${recipeId})`
  },

  /** Versions without their content, newest first. */
  async list (db: Db, recipeId: string, pageNo: number, limit: number): Promise<Page<RevisionView>> {
    const [rows, [{ total }]] = await Promise.all([
      db<RevisionRow[]>`select id, version, editor_id, created_at from recipe_revisions
        where recipe_id = ${recipeId} order by version desc limit ${limit} offset ${(pageNo - 1) * limit}`,
      db<Array<Counted<'total'>>>`select count(*)::int as total from recipe_revisions where recipe_id = ${recipeId}`
    ])
    return { items: rows.map(view), total }
  },

  async one (db: Db, recipeId: string, revisionId: string): Promise<(RevisionView & { recipe: RecipeView }) | null> {
    const [row] = await db<Array<RevisionRow & Record<'snapshot', StoredSnapshot>>>`
      select id, version, editor_id, created_at, snapshot from recipe_revisions where recipe_id = ${recipeId} and id = ${revisionId}`
    // Snapshots taken before migration 0031 have no sourceImageUrl.
    return row == null ? null : { ...view(row), recipe: { ...row.snapshot, sourceImageUrl: row.snapshot.sourceImageUrl ?? null } }
  }
}

export default fp(async fastify => {
  fastify.decorate('revisionsRepository', revisionsRepository)
}, { name: 'revisions-repository' })
