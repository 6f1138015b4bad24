// Tags with their recipe counts, and the recipes of one tag.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { HttpError } from '../../../lib/errors.js'
import { ErrorRef, pagination, Pagination, PaginationQuery, ref } from '../../../schemas/common.js'
import { Recipe } from '../../../schemas/recipes.js'

const Tag = Type.Object({ id: Type.String(), name: Type.String(), slug: Type.String(), recipeCount: Type.Integer({ description: 'Public recipes with this tag' }) })

const tags: FastifyPluginAsyncTypebox = async fastify => {
  const repo = fastify.recipesRepository

  fastify.get('/', {
    onRequest: fastify.optionalAuth,
    schema: { summary: 'All tags, most used first', response: { 200: Type.Object({ tags: Type.Array(Tag) }) } }
  }, async () => ({ tags: await repo.tags() }))

  fastify.get('/:slug/recipes', {
    onRequest: fastify.optionalAuth,
    schema: {
      summary: 'Public recipes with a tag, with the caller\'s like, bookmark and rating',
      params: Type.Object({ slug: Type.String({ minLength: 1, maxLength: 100 }) }),
      querystring: PaginationQuery,
      response: { 200: Type.Object({ tag: Type.Object({ id: Type.String(), name: Type.String(), slug: Type.String() }), recipes: Type.Array(ref(Recipe)), pagination: ref(Pagination) }), 404: ErrorRef }
    }
  }, async request => {
    const tag = await repo.tagBySlug(request.params.slug)
    if (tag == null) throw new HttpError(404, 'Tag not found')
    const { page, limit } = request.query
    const { recipes, total } = await repo.list({ tag: tag.slug, sort: 'newest' }, request.user?.id ?? null, page, limit)
    return { tag: { id: tag.id, name: tag.name, slug: tag.slug }, recipes, pagination: pagination(page, limit, total) }
  })
}

export default tags
