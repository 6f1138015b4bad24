// The recipe aggregate's rules: who may see and change a recipe, the plan limit, slugs, tags, revisions and the
// notifications a new recipe causes. Writes run in one transaction opened here; repositories only run queries.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { AiLimitReached, ImportLimitReached, NotRecipeAuthor, RecipeLimitReached, RecipeNotFound, RevisionNotFound } from '../../../lib/errors.js'
import type { RawJson } from '../../../lib/raw-json.js'
import { slugOf } from '../../../lib/slug.js'
import type { RecipeFilters, RecipeInput, RecipeView } from '../../../schemas/recipes.js'
import type { Db } from '../../external/db.js'
import type { UsageKind } from '../repositories/plans.js'
import { createListingTotals, isUnfiltered } from './listing-totals.js'
import { inputFromRecipe, normalizeTags, recipeFields } from './recipe-fields.js'
import { searchTerm } from '../repositories/recipe-queries.js'

declare module 'fastify' {
  interface FastifyInstance {
    recipeService: ReturnType<typeof createRecipeService>
  }
}

export interface CreateOptions {
  /** Monthly allowance this creation spends (imports, AI generations), counted in the same transaction. */
  spends?: UsageKind
  /** An import's original image address (recipes.source_image_url); `input.imageUrl` is then our copy of it or null. */
  sourceImageUrl?: string | null
}

export interface CreateOnceOptions extends CreateOptions {
  /**
   * What makes this request the same as an earlier one (`import:<hash>`, `ai:<hash>`, at most 200 characters). A
   * request with a key that made a recipe within `withinSeconds` gets that recipe back, spending nothing.
   */
  key: string
  withinSeconds: number
}

const REMOVE_ORPHAN_TAGS_JOB = 'tags.remove-orphans'

export function createRecipeService (fastify: FastifyInstance) {
  const { recipesRepository: recipes, tagsRepository: tags, revisionsRepository: revisions } = fastify
  const listingTotal = createListingTotals(fastify)

  /** The recipe as the viewer sees it; RecipeNotFound when it does not exist or they may not see it. */
  async function get (id: string, viewerId: string | null, db: Db = fastify.db): Promise<RecipeView> {
    const recipe = await recipes.find(db, id, viewerId)
    if (recipe == null) throw new RecipeNotFound()
    return recipe
  }

  /** get() for the detail route: an anonymous caller gets the JSON text kept per recipe (recipe-view-cache.ts). */
  async function view (id: string, viewerId: string | null): Promise<RecipeView | RawJson<RecipeView>> {
    if (viewerId != null) return await get(id, viewerId)
    const kept = await fastify.recipeViewCache.anonymous(id, async () => await recipes.find(fastify.db, id, null))
    if (kept == null) throw new RecipeNotFound()
    return kept
  }

  /** The recipe if the caller is its author: 404 when they cannot see it, 403 when they can but it is not theirs. */
  async function own (db: Db, id: string, userId: string): Promise<RecipeView> {
    const recipe = await get(id, userId, db)
    if (recipe.author.id !== userId) throw new NotRecipeAuthor()
    return recipe
  }

  /** The input with its `imageUrl` checked: one of the author's own uploads, or an outside URL. */
  async function withImage<T extends RecipeInput> (tx: Db, userId: string, input: T): Promise<T> {
    if (input.imageUrl == null) return input
    return { ...input, imageUrl: await fastify.mediaService.recipeImageUrl(tx, userId, input.imageUrl) }
  }

  /** Orphaned tags are removed by a job that commits with the write; a tag another recipe took meanwhile stays. */
  async function dropOrphanTags (tx: Db, tagIds: string[]): Promise<void> {
    if (tagIds.length === 0) return
    await fastify.queue.send(REMOVE_ORPHAN_TAGS_JOB, { tagIds }, tx)
  }

  /**
   * Creates a recipe for `author`: plan limit check, slug, row, tags, audience, spent allowance and the followers'
   * notification job commit together. The author's row is locked, so the limit, the slug and a creation key are exact
   * even when the same author creates many recipes at once.
   */
  async function createRecipe (author: { id: string }, input: RecipeInput & { title: string }, options: CreateOptions & Partial<CreateOnceOptions>): Promise<{ recipe: RecipeView, created: boolean }> {
    return await fastify.transaction(async tx => {
      await fastify.usersRepository.lock(tx, author.id)
      if (options.key != null) {
        const made = await recipes.createdFor(tx, author.id, options.key, options.withinSeconds ?? 0)
        if (made != null) return { recipe: await get(made, author.id, tx), created: false }
      }
      const fields = recipeFields(await withImage(tx, author.id, input))
      const { limits } = await fastify.planService.forUser(author.id, tx)
      // The allowance first: the counter's row update is exact under concurrent imports (its row lock orders them).
      if (options.spends != null) {
        const used = await fastify.planService.spend(tx, author.id, options.spends)
        const limit = limits[options.spends]
        if (limit != null && used > limit) {
          throw options.spends === 'imports' ? new ImportLimitReached({ limit, used: used - 1 }) : new AiLimitReached({ limit, used: used - 1 })
        }
      }
      if (limits.recipes != null) {
        const used = await recipes.countByAuthor(tx, author.id)
        if (used >= limits.recipes) throw new RecipeLimitReached({ limit: limits.recipes, used })
      }
      const slug = await recipes.freeSlug(tx, author.id, slugOf(fields.title, 'recipe'))
      const id = await recipes.insert(tx, author.id, slug, { ...fields, sourceImageUrl: options.sourceImageUrl ?? null })
      await tags.setForRecipe(tx, id, normalizeTags(input.tags))
      if (input.audienceUserIds !== undefined) await recipes.setAudience(tx, id, input.audienceUserIds)
      if (fields.published === true && fields.visibility !== 'private') await fastify.notificationService.newRecipe(tx, id)
      if (options.key != null) await recipes.rememberCreation(tx, author.id, options.key, id)
      return { recipe: await get(id, author.id, tx), created: true }
    })
  }

  /** Writes `input` over the recipe (author only), keeping the current version as a revision. */
  async function edit (userId: string, id: string, input: RecipeInput): Promise<RecipeView> {
    return await fastify.transaction(async tx => {
      // Edits of one recipe apply one after the other, so versions and revisions never interleave.
      await recipes.lock(tx, id)
      const current = await own(tx, id, userId)
      await revisions.add(tx, id, userId, current)
      await recipes.update(tx, id, recipeFields(await withImage(tx, userId, input), current))
      if (input.tags !== undefined) await dropOrphanTags(tx, await tags.setForRecipe(tx, id, normalizeTags(input.tags)))
      if (input.audienceUserIds !== undefined) await recipes.setAudience(tx, id, input.audienceUserIds)
      return await get(id, userId, tx)
    })
  }

  async function revision (userId: string, id: string, revisionId: string) {
    await own(fastify.db, id, userId)
    const found = await revisions.one(fastify.db, id, revisionId)
    if (found == null) throw new RevisionNotFound()
    return found
  }

  return {
    get,
    view,

    /** A page of the public listing with its total (see listing-totals.ts for how the total stays cheap). */
    async list (filters: RecipeFilters, viewerId: string | null, page: number, limit: number) {
      if (isUnfiltered(filters)) {
        const { listing, ...found } = await recipes.listedPage(fastify.db, filters.sort ?? 'newest', viewerId, page, limit)
        return { ...found, ...(await listingTotal(filters, listing)) }
      }
      if (searchTerm(filters).text === '') {
        const [found, total] = await Promise.all([recipes.list(fastify.db, filters, viewerId, page, limit), listingTotal(filters)])
        return { ...found, ...total }
      }
      // A search's total (cached per term and listing version) comes first: it tells how to read the page.
      const total = await listingTotal(filters)
      const found = await recipes.list(fastify.db, filters, viewerId, page, limit, total.totalExact ? total.total : null)
      return { ...found, ...total }
    },

    async byAuthor (authorId: string, viewerId: string | null, page: number, limit: number) {
      return await recipes.byAuthor(fastify.db, authorId, viewerId, page, limit)
    },

    async bySlug (authorId: string, slug: string, viewerId: string | null): Promise<RecipeView> {
      const recipe = await recipes.bySlug(fastify.db, authorId, slug, viewerId)
      if (recipe == null) throw new RecipeNotFound()
      return recipe
    },

    async popular (limit: number, viewerId: string | null) {
      return await recipes.popular(fastify.db, limit, viewerId)
    },

    async cuisines () {
      return await recipes.cuisines(fastify.db)
    },

    async commonIngredients () {
      return await recipes.commonIngredients(fastify.db)
    },

    async feed (userId: string, before: { createdAt: string, id: string } | null, limit: number) {
      return await recipes.feed(fastify.db, userId, before, limit)
    },

    /** Creates a recipe for `author` (see createRecipe). */
    async create (author: { id: string }, input: RecipeInput & { title: string }, options: CreateOptions = {}): Promise<RecipeView> {
      return (await createRecipe(author, input, options)).recipe
    },

    /**
     * `create` made idempotent by a key: repeated and concurrent identical requests (the author's row lock orders
     * them) get the first one's recipe, `created: false`.
     */
    async createOnce (author: { id: string }, input: RecipeInput & { title: string }, options: CreateOnceOptions): Promise<{ recipe: RecipeView, created: boolean }> {
      return await createRecipe(author, input, options)
    },

    edit,

    async remove (userId: string, id: string): Promise<void> {
      await fastify.transaction(async tx => {
        await recipes.lock(tx, id)
        await own(tx, id, userId)
        const oldTags = await tags.setForRecipe(tx, id, [])
        await recipes.remove(tx, id)
        await dropOrphanTags(tx, oldTags)
      })
    },

    async revisions (userId: string, id: string, page: number, limit: number) {
      await own(fastify.db, id, userId)
      return await revisions.list(fastify.db, id, page, limit)
    },

    revision,

    /** Restores an earlier version through the same path as an edit, so the current one becomes a revision too. */
    async restore (userId: string, id: string, revisionId: string): Promise<RecipeView> {
      const { recipe } = await revision(userId, id, revisionId)
      return await edit(userId, id, inputFromRecipe(recipe))
    },

    async tags (page: number, limit: number) {
      return await tags.listed(fastify.db, page, limit)
    },

    async tagBySlug (slug: string) {
      return await tags.bySlug(fastify.db, slug)
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('recipeService', createRecipeService(fastify))
  await fastify.queue.work<{ tagIds: string[] }>(REMOVE_ORPHAN_TAGS_JOB, async ({ tagIds }) => {
    await fastify.tagsRepository.removeOrphans(fastify.db, tagIds)
  })
}, {
  name: 'recipe-service',
  dependencies: ['recipes-repository', 'tags-repository', 'revisions-repository', 'users-repository', 'plan-service', 'notification-service', 'media-service', 'queue', 'cache', 'recipe-view-cache']
})
