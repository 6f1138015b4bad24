// Tags and their links to recipes. Tags are upserted by slug in one statement, in slug order, so concurrent creates
// sharing tags neither deadlock nor collide.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { recipeTags, tags as tagTable } from '../../../db/schema/index.js'
import type { TagView } from '../../../schemas/recipes.js'
import type { Db } from '../../external/db.js'
import type { Page } from './recipes.js'
import { listedRecipe } from './visibility.js'
import type { Counted } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    tagsRepository: typeof tagsRepository
  }
}

export interface TagName { name: string, slug: string }

export const tagsRepository = {
  /** Replaces a recipe's tags; returns the ids of the tags it had before (candidates for orphan clean-up). */
  async setForRecipe (db: Db, recipeId: string, tags: TagName[]): Promise<string[]> {
    const previous = await db<Array<Pick<typeof recipeTags.$inferSelect, 'tagId'>>>`delete from recipe_tags where recipe_id = ${recipeId} returning tag_id`
    if (tags.length > 0) {
      const sorted = [...tags].sort((a, b) => a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0)
      // "Vegan" and "vegan" are one tag, named by whoever used it first: the update only returns the existing row.
      await db`
        with upserted as (
          insert into tags (id, name, slug)
          select * from unnest(${sorted.map(() => createId())}::text[], ${sorted.map(t => t.name)}::text[], ${sorted.map(t => t.slug)}::text[])
          order by 3
          on conflict (slug) do update set slug = excluded.slug
          returning id
        )
        insert into recipe_tags (recipe_id, tag_id) select ${recipeId}, id from upserted on conflict do nothing`
    }
    return previous.map(row => row.tagId)
  },

  /** Deletes those of `ids` that no recipe uses any more. A tag linked meanwhile is kept (the foreign key refuses). */
  async removeOrphans (db: Db, ids: string[]): Promise<void> {
    if (ids.length === 0) return
    await db`delete from tags t where t.id = any(${ids}::text[]) and not exists (select 1 from recipe_tags rt where rt.tag_id = t.id)`
  },

  /** Tags of listed recipes with their counts, most used first. */
  async listed (db: Db, pageNo: number, limit: number): Promise<Page<TagView>> {
    const [items, [{ total }]] = await Promise.all([
      db<Array<Pick<typeof tagTable.$inferSelect, 'id' | 'name' | 'slug'> & Pick<TagView, 'recipeCount'>>>`
        select t.id, t.name, t.slug, count(*)::int as recipe_count
        from tags t join recipe_tags rt on rt.tag_id = t.id join recipes r on r.id = rt.recipe_id
        where ${listedRecipe(db)}
        group by t.id order by recipe_count desc, t.name, t.id limit ${limit} offset ${(pageNo - 1) * limit}`,
      db<Array<Counted<'total'>>>`
        select count(distinct rt.tag_id)::int as total from recipe_tags rt join recipes r on r.id = rt.recipe_id where ${listedRecipe(db)}`
    ])
    return { items, total }
  },

  async bySlug (db: Db, slug: string): Promise<{ id: string, name: string, slug: string } | null> {
    const [row] = await db<Array<Pick<typeof tagTable.$inferSelect, 'id' | 'name' | 'slug'>>>`select id, name, slug from tags where slug = ${slug}`
    return row ?? null
  }
}

export default fp(async fastify => {
  fastify.decorate('tagsRepository', tagsRepository)
}, { name: 'tags-repository' })
