// The items of a grocery list: add, change (check/uncheck, rename, amount, aisle, position), remove, and two
// conveniences for a new shopping trip: uncheck everything, or clear what is checked. The owner and the members of
// the family the list is shared with may do all of this; anyone else gets 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { described, ErrorRef, Id, Message, ref } from '../../../schemas/common.js'
import { GROCERY_LIMITS, GroceryItem, GroceryItemBody, GroceryItemPatchBody, GroceryList } from '../../../schemas/grocery.js'

const Params = Type.Object({ groceryListId: Id })
const ItemParams = Type.Object({ groceryListId: Id, itemId: Id })
const OneItem = (description: string) => Type.Object({ item: ref(GroceryItem) }, { description })

const items: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.groceryListService

  fastify.post('/:groceryListId/items', {
    schema: {
      operationId: 'grocerylists.addItem',
      summary: 'Add an item to a grocery list',
      description: 'It goes last in its aisle; without a category one is guessed from the name (unknown: other). Item name ' +
        `${GROCERY_LIMITS.itemName} characters, unit ${GROCERY_LIMITS.unit}, note ${GROCERY_LIMITS.note}. A list holds at ` +
        `most ${GROCERY_LIMITS.itemsPerList} items (exact under concurrent adds): 403 with limit and used beyond.`,
      params: Params,
      body: GroceryItemBody,
      response: { 201: OneItem('The new item'), 403: ErrorRef, 404: ErrorRef }
    }
  }, async (request, reply) => {
    const item = await service.addItem(currentUser(request).id, request.params.groceryListId, request.body)
    return await reply.code(201).send({ item })
  })

  fastify.patch('/:groceryListId/items/:itemId', {
    schema: {
      operationId: 'grocerylists.updateItem',
      summary: 'Change an item: check or uncheck it, rename it, change its amount, aisle, note or position',
      description: 'Send only what changes; null clears quantity, unit or note.',
      params: ItemParams,
      body: GroceryItemPatchBody,
      response: { 200: OneItem('The item as saved'), 404: ErrorRef }
    }
  }, async request => {
    const { groceryListId, itemId } = request.params
    return { item: await service.updateItem(currentUser(request).id, groceryListId, itemId, request.body) }
  })

  fastify.delete('/:groceryListId/items/:itemId', {
    schema: {
      operationId: 'grocerylists.removeItem',
      summary: 'Remove an item from a grocery list',
      params: ItemParams,
      response: { 200: described('Removed', Message), 404: ErrorRef }
    }
  }, async request => {
    const { groceryListId, itemId } = request.params
    await service.removeItem(currentUser(request).id, groceryListId, itemId)
    return { message: 'Item removed' }
  })

  fastify.post('/:groceryListId/uncheck-all', {
    schema: {
      operationId: 'grocerylists.uncheckAll',
      summary: 'Uncheck every item of a grocery list',
      description: 'For the next shopping trip with the same list.',
      params: Params,
      response: { 200: Type.Object({ groceryList: ref(GroceryList) }, { description: 'The list with every item unchecked' }), 404: ErrorRef }
    }
  }, async request => ({ groceryList: await service.uncheckAll(currentUser(request).id, request.params.groceryListId) }))

  fastify.post('/:groceryListId/clear-checked', {
    schema: {
      operationId: 'grocerylists.clearChecked',
      summary: 'Remove the checked items of a grocery list',
      params: Params,
      response: {
        200: Type.Object({ removed: Type.Integer({ minimum: 0 }), groceryList: ref(GroceryList) }, { description: 'How many items were removed, and the list as it is now' }),
        404: ErrorRef
      }
    }
  }, async request => await service.clearChecked(currentUser(request).id, request.params.groceryListId))
}

export default items
