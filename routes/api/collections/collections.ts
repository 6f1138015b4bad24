// Collections: CRUD, items (add, remove, reorder). Another user's collection is visible only when public.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { HttpError } from '../../../lib/errors.js'
import { currentUser } from '../../../plugins/app/auth.js'
import { Collection, CollectionBody } from '../../../schemas/collections.js'
import { ErrorRef, Id, ref } from '../../../schemas/common.js'

const Params = Type.Object({ id: Id })
const One = Type.Object({ collection: ref(Collection) })
const NOT_FOUND = 'Collection not found'

const collections: FastifyPluginAsyncTypebox = async fastify => {
  const repo = fastify.collectionsRepository

  /** The caller's own collection, or 404 (someone else's is never theirs to change). */
  async function own (id: string, userId: string) {
    const collection = await repo.owned(id, userId)
    if (collection == null) throw new HttpError(404, NOT_FOUND)
    return collection
  }

  async function view (id: string, userId: string) {
    const collection = await repo.get(id, userId)
    if (collection == null) throw new HttpError(404, NOT_FOUND)
    return { collection }
  }

  fastify.get('/', {
    schema: { summary: 'Your collections with their recipes', response: { 200: Type.Object({ collections: Type.Array(ref(Collection)) }) } }
  }, async request => ({ collections: await repo.listForUser(currentUser(request).id) }))

  fastify.post('/', {
    schema: { summary: 'Create a collection', body: CollectionBody, response: { 201: One } }
  }, async (request, reply) => {
    const userId = currentUser(request).id
    const id = await repo.create(userId, { ...request.body, name: request.body.name.trim() })
    return await reply.code(201).send(await view(id, userId))
  })

  fastify.get('/:id', {
    schema: { summary: 'One collection (yours, or a public one)', params: Params, response: { 200: One, 404: ErrorRef } }
  }, async request => await view(request.params.id, currentUser(request).id))

  fastify.put('/:id', {
    schema: { summary: 'Rename or describe a collection, or change whether it is public', params: Params, body: Type.Partial(CollectionBody), response: { 200: One, 404: ErrorRef } }
  }, async request => {
    const userId = currentUser(request).id
    await own(request.params.id, userId)
    await repo.update(request.params.id, { ...request.body, name: request.body.name?.trim() })
    return await view(request.params.id, userId)
  })

  fastify.delete('/:id', {
    schema: { summary: 'Delete a collection (not Saved Recipes)', params: Params, response: { 204: Type.Null(), 404: ErrorRef, 409: ErrorRef } }
  }, async (request, reply) => {
    const collection = await own(request.params.id, currentUser(request).id)
    if (collection.type === 'saved') throw new HttpError(409, 'The Saved Recipes collection cannot be deleted')
    await repo.remove(collection.id)
    return await reply.code(204).send(null)
  })

  fastify.post('/:id/recipes', {
    schema: { summary: 'Add a recipe you can see', params: Params, body: Type.Object({ recipeId: Id }), response: { 201: One, 404: ErrorRef } }
  }, async (request, reply) => {
    const userId = currentUser(request).id
    const collection = await own(request.params.id, userId)
    const recipe = await fastify.recipesRepository.visible(request.body.recipeId, userId)
    await repo.addItem(collection.id, recipe.id)
    return await reply.code(201).send(await view(collection.id, userId))
  })

  fastify.delete('/:id/recipes/:recipeId', {
    schema: { summary: 'Remove a recipe from a collection', params: Type.Object({ id: Id, recipeId: Id }), response: { 200: One, 404: ErrorRef } }
  }, async request => {
    const userId = currentUser(request).id
    const collection = await own(request.params.id, userId)
    if (!(await repo.removeItem(collection.id, request.params.recipeId))) throw new HttpError(404, 'Recipe not in this collection')
    return await view(collection.id, userId)
  })

  fastify.put('/:id/recipes/order', {
    schema: {
      summary: 'Reorder the recipes of a collection',

      params: Params,
      body: Type.Object({ recipeIds: Type.Array(Id, { maxItems: 1000, uniqueItems: true }) }),
      response: { 200: One, 404: ErrorRef }
    }
  }, async request => {
    const userId = currentUser(request).id
    const collection = await own(request.params.id, userId)
    await repo.reorder(collection.id, request.body.recipeIds)
    return await view(collection.id, userId)
  })
}

export default collections
