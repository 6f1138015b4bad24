// Tags of listed recipes with their counts, and the recipes of one tag.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from 'typebox'
import { sendJson } from '../../../lib/raw-json.js'
import { TagNotFound } from '../../../lib/errors.js'
import { ErrorRef, pagination, Pagination, PaginationQuery, ref } from '../../../schemas/common.js'
import { Recipe, Tag, TagRef } from '../../../schemas/recipes.js'

const TagRecipePage = Type.Object({ tag: TagRef, recipes: Type.Array(ref(Recipe)), pagination: ref(Pagination) }, { description: 'The tag and a page of its recipes' })

const tags: FastifyPluginAsyncTypebox = async fastify => {
  const recipes = fastify.recipeService

  fastify.get('/', {
    onRequest: fastify.optionalAuth,
    schema: {
      operationId: 'tags.list',
      summary: 'Tags used by listed recipes, most used first',
      description: 'Tags used only on private, friends-only or custom recipes are not listed.',
      querystring: PaginationQuery,
      response: { 200: Type.Object({ tags: Type.Array(ref(Tag)), pagination: ref(Pagination) }, { description: 'A page of tags' }) }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await recipes.tags(page, limit)
    return { tags: items, pagination: pagination(page, limit, total) }
  })

  fastify.get('/:slug/recipes', {
    onRequest: fastify.optionalAuth,
    schema: {
      operationId: 'tags.recipes',
      summary: 'Public recipes with a tag, with the caller\'s like, bookmark and rating',
      params: Type.Object({ slug: Type.String({ minLength: 1, maxLength: 100 }) }),
      querystring: PaginationQuery,
      response: { 200: TagRecipePage, 404: ErrorRef }
    }
  }, async (request, reply) => {
    const tag = await recipes.tagBySlug(request.params.slug)
    if (tag == null) throw new TagNotFound()
    const { page, limit } = request.query
    const { items, total, hasNext, totalExact } = await recipes.list({ tag: tag.slug }, request.user?.id ?? null, page, limit)
    return await sendJson<Static<typeof TagRecipePage>>(reply, { tag, recipes: items, pagination: pagination(page, limit, total, { hasNext, totalExact }) })
  })
}

export default tags
