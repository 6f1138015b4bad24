// Collections: CRUD, a paged list of collections with their first items, all items of one collection paged apart,
// items (add, remove, reorder). Another user's collection is readable only when public and never changeable (404).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { Collection, CollectionBody, CollectionItem, CollectionPatchBody, COLLECTION_LIMITS } from '../../../schemas/collections.js'
import { ErrorRef, Id, pagination, Pagination, PaginationQuery, RecipeParams, ref } from '../../../schemas/common.js'

const Params = Type.Object({ collectionId: Id })
const One = (description: string) => Type.Object({ collection: ref(Collection) }, { description })
const WithItem = (description: string) => Type.Object({ collection: ref(Collection), item: ref(CollectionItem) }, { description })
const SUMMARY = `Each collection carries its items in collection order (the first ${COLLECTION_LIMITS.embeddedItems}, ` +
  'each with the recipe\'s id, title, slug, image and author) and itemCount; itemsTruncated says there are more, ' +
  'all of them paged at GET /api/collections/{collectionId}/recipes. Only recipes you can see are listed and counted. ' +
  '`preview` (the first four, id, title and image) is kept for older clients.'

const collections: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.collectionService

  fastify.get('/', {
    schema: {
      operationId: 'collections.list',
      summary: 'A page of your collections with their items, Saved Recipes first',
      description: SUMMARY,
      querystring: PaginationQuery,
      response: { 200: Type.Object({ collections: Type.Array(ref(Collection)), pagination: ref(Pagination) }, { description: 'A page of collections' }) }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await service.list(currentUser(request).id, page, limit)
    return { collections: items, pagination: pagination(page, limit, total) }
  })

  fastify.post('/', {
    schema: {
      operationId: 'collections.create',
      summary: 'Create a collection',
      description: 'The name is trimmed and must not be blank. The slug comes from the name; when you already have it, a short suffix is added.',
      body: CollectionBody,
      response: { 201: One('The new collection') }
    }
  }, async (request, reply) => {
    const collection = await service.create(currentUser(request).id, request.body)
    return await reply.code(201).send({ collection })
  })

  fastify.get('/:collectionId', {
    schema: {
      operationId: 'collections.get',
      summary: 'One collection (yours, or a public one)',
      description: SUMMARY,
      params: Params,
      response: { 200: One('The collection'), 404: ErrorRef }
    }
  }, async request => ({ collection: await service.get(request.params.collectionId, currentUser(request).id) }))

  fastify.get('/:collectionId/recipes', {
    schema: {
      operationId: 'collections.listRecipes',
      summary: 'A page of the recipes in a collection (yours, or a public one), in collection order',
      description: 'Only recipes you can see are listed and counted.',
      params: Params,
      querystring: PaginationQuery,
      response: { 200: Type.Object({ items: Type.Array(ref(CollectionItem)), pagination: ref(Pagination) }, { description: 'A page of the collection\'s recipes' }), 404: ErrorRef }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await service.items(request.params.collectionId, currentUser(request).id, page, limit)
    return { items, pagination: pagination(page, limit, total) }
  })

  fastify.put('/:collectionId', {
    schema: {
      operationId: 'collections.update',
      summary: 'Rename or describe a collection, or change whether it is public',
      description: 'The slug does not change on rename.',
      params: Params,
      body: CollectionPatchBody,
      response: { 200: One('The collection as saved'), 404: ErrorRef }
    }
  }, async request => ({ collection: await service.update(currentUser(request).id, request.params.collectionId, request.body) }))

  fastify.delete('/:collectionId', {
    schema: {
      operationId: 'collections.delete',
      summary: 'Delete a collection (not Saved Recipes: 409)',
      description: '204 with no body (interface.md); the recipes themselves stay.',
      params: Params,
      response: { 204: Type.Null({ description: 'Deleted' }), 404: ErrorRef, 409: ErrorRef }
    }
  }, async (request, reply) => {
    await service.remove(currentUser(request).id, request.params.collectionId)
    return await reply.code(204).send(null)
  })

  fastify.post('/:collectionId/recipes', {
    schema: {
      operationId: 'collections.addRecipe',
      summary: 'Add a recipe you can see',
      description: '201 with the new item; 200 with the existing item when the recipe is already there. Adding to Saved Recipes bookmarks the recipe.',
      params: Params,
      body: Type.Object({ recipeId: Id }),
      response: { 200: WithItem('Already there: the existing item'), 201: WithItem('Added: the new item'), 404: ErrorRef }
    }
  }, async (request, reply) => {
    const { created, item, collection } = await service.addRecipe(currentUser(request).id, request.params.collectionId, request.body.recipeId)
    return await reply.code(created ? 201 : 200).send({ collection, item })
  })

  fastify.delete('/:collectionId/recipes/:recipeId', {
    schema: {
      operationId: 'collections.removeRecipe',
      summary: 'Remove a recipe from a collection',
      description: 'Works whatever the recipe\'s visibility is now. Removing from Saved Recipes removes the bookmark.',
      params: Type.Object({ ...Params.properties, ...RecipeParams.properties }),
      response: { 200: Type.Object({ message: Type.String(), collection: ref(Collection) }, { description: 'Removed: the collection with its new count' }), 404: ErrorRef }
    }
  }, async request => {
    const { collectionId, recipeId } = request.params
    return { message: 'Recipe removed from collection', collection: await service.removeRecipe(currentUser(request).id, collectionId, recipeId) }
  })

  fastify.put('/:collectionId/recipes/order', {
    schema: {
      operationId: 'collections.reorderRecipes',
      summary: 'Reorder the recipes of a collection',
      description: 'The listed recipes come first, in the given order; the others follow in their current order.',
      params: Params,
      body: Type.Object({ recipeIds: Type.Array(Id, { maxItems: COLLECTION_LIMITS.reorder, uniqueItems: true }) }),
      response: { 200: One('The collection, its items in the new order'), 404: ErrorRef }
    }
  }, async request => ({ collection: await service.reorder(currentUser(request).id, request.params.collectionId, request.body.recipeIds) }))
}

export default collections
