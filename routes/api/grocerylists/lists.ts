// Grocery lists: CRUD, sharing with a family, and a list gathered from a meal plan. A list is its owner's and, while
// shared with a family, its members' (they see and edit it); only the owner deletes or re-shares it. Anyone else: 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AISLES } from '../../../lib/grocery.js'
import { sendJson } from '../../../lib/raw-json.js'
import { currentUser } from '../../../plugins/app/auth.js'
import { described, ErrorRef, Id, Message, pagination, Pagination, PaginationQuery, ref } from '../../../schemas/common.js'
import {
  FromMealPlanBody, GROCERY_LIMITS, GroceryList, GroceryListCreateBody, GroceryListSummary, GroceryListUpdateBody
} from '../../../schemas/grocery.js'

const Params = Type.Object({ groceryListId: Id })
const One = (description: string) => Type.Object({ groceryList: ref(GroceryList) }, { description })

const BOUNDS = `Bounds: list name ${GROCERY_LIMITS.listName} characters, item name ${GROCERY_LIMITS.itemName}, unit ` +
  `${GROCERY_LIMITS.unit}, note ${GROCERY_LIMITS.note}; at most ${GROCERY_LIMITS.itemsPerList} items a list and ` +
  `${GROCERY_LIMITS.listsPerUser} lists a user (lists shared with you do not count); over a count: 403 with limit and used.`
const ORDER = `Items come in aisle order (${AISLES.join(', ')}), then by position.`
const SHARING = 'familyId shares the list with a family you belong to (another family: 404): its members then see and ' +
  'edit the list and its items; only the owner deletes or re-shares it (403 for members). null unshares.'

const lists: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.groceryListService

  fastify.get('/', {
    schema: {
      operationId: 'grocerylists.list',
      summary: 'A page of your grocery lists and those shared with your families',
      description: 'Most recently changed first, without their items (GET /api/grocerylists/{groceryListId} has them).',
      querystring: PaginationQuery,
      response: { 200: Type.Object({ groceryLists: Type.Array(ref(GroceryListSummary)), pagination: ref(Pagination) }, { description: 'A page of lists' }) }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await service.list(currentUser(request).id, page, limit)
    return { groceryLists: items, pagination: pagination(page, limit, total) }
  })

  fastify.post('/', {
    schema: {
      operationId: 'grocerylists.create',
      summary: 'Create a grocery list, optionally with items and shared with a family',
      description: `Names are trimmed and must not be blank. An item without a category gets one from its name. ${SHARING} ${BOUNDS}`,
      body: GroceryListCreateBody,
      response: { 201: One('The new list'), 403: ErrorRef, 404: ErrorRef }
    }
  }, async (request, reply) => {
    const groceryList = await service.create(currentUser(request).id, request.body)
    return await reply.code(201).send({ groceryList })
  })

  fastify.post('/from-mealplan', {
    schema: {
      operationId: 'grocerylists.fromMealPlan',
      summary: 'Create a grocery list from a meal plan\'s recipes',
      description: 'The plan must be yours or shared with you (else 404). Every planned recipe you can still see ' +
        'contributes its ingredients, scaled by planned servings / recipe servings (factor 1 when either is unset); ' +
        'meals with only a custom title contribute nothing. The same ingredient (case, spacing and singular/plural ' +
        'aside: eggs = egg) is summed when the units are compatible: volume with volume, mass with mass, counts with ' +
        'counts (a dozen is 12), converted and given in a readable unit (1 tbsp + 1 cup = 1.06 cup). Mass and volume ' +
        'are never mixed, as that needs a density: 200 g sugar and 1 cup sugar stay two items. Other units (cloves, ' +
        'cans) sum only with the same unit; a range counts its upper end; lines without an amount are kept as written ' +
        `(identical lines once). Each item gets an aisle (${AISLES.join(', ')}) from a keyword table. ${BOUNDS}`,
      body: FromMealPlanBody,
      response: { 201: One('The new list, items in aisle order'), 403: ErrorRef, 404: ErrorRef }
    }
  }, async (request, reply) => {
    const groceryList = await service.fromMealPlan(currentUser(request).id, request.body)
    return await reply.code(201).send({ groceryList })
  })

  fastify.get('/:groceryListId', {
    schema: {
      operationId: 'grocerylists.get',
      summary: 'One grocery list with all its items',
      description: `${ORDER} At most ${GROCERY_LIMITS.itemsPerList} items, so they are not paged.`,
      params: Params,
      response: { 200: One('The list'), 404: ErrorRef }
    }
  }, async (request, reply) => await sendJson(reply, { groceryList: await service.json(request.params.groceryListId, currentUser(request).id) }))

  fastify.put('/:groceryListId', {
    schema: {
      operationId: 'grocerylists.update',
      summary: 'Rename a grocery list, or share or unshare it with a family',
      description: `Send only what changes. Members of the family it is shared with may rename it. ${SHARING}`,
      params: Params,
      body: GroceryListUpdateBody,
      response: { 200: One('The list as saved'), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => ({ groceryList: await service.update(currentUser(request).id, request.params.groceryListId, request.body) }))

  fastify.delete('/:groceryListId', {
    schema: {
      operationId: 'grocerylists.delete',
      summary: 'Delete a grocery list and its items (owner only)',
      description: 'Family members the list is shared with get 403; anyone else 404.',
      params: Params,
      response: { 200: described('Deleted', Message), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => {
    await service.remove(currentUser(request).id, request.params.groceryListId)
    return { message: 'Grocery list deleted' }
  })
}

export default lists
