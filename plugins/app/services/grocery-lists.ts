// Grocery list rules: a list is its owner's, and, while shared with a family, its members' to see and edit (items,
// name); only the owner deletes or (re-)shares it, and only with a family they belong to. Strangers get 404. Counts are
// bounded (lists a user owns, items a list holds) and exact under concurrency: the owner's row is locked to create a
// list, the list's row to add items. Lists gathered from a meal plan merge the plan's ingredients (lib/grocery.ts).
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import {
  FamilyNotFound, GroceryItemNotFound, GroceryListFull, GroceryListLimitReached, GroceryListNotFound, MealPlanNotFound,
  NotGroceryListOwner, validationError
} from '../../../lib/errors.js'
import { aisleFor, mergeIngredients, servingsFactor, type Contribution } from '../../../lib/grocery.js'
import type { RawJson } from '../../../lib/raw-json.js'
import { normalizeIngredients } from '../../../lib/ingredients.js'
import { optionalText } from '../../../lib/text.js'
import {
  GROCERY_LIMITS, type FromMealPlanInput, type GroceryItemChanges, type GroceryItemInput, type GroceryItemView,
  type GroceryListChanges, type GroceryListInput, type GroceryListSummaryView, type GroceryListView
} from '../../../schemas/grocery.js'
import type { Db } from '../../external/db.js'
import type { GroceryItemChangeSet, GroceryListAccess, NewGroceryItem, NewGroceryList } from '../repositories/grocery-lists.js'
import type { Page } from '../repositories/recipes.js'

declare module 'fastify' {
  interface FastifyInstance {
    groceryListService: ReturnType<typeof createGroceryListService>
  }
}

/** Trimmed text that must not be blank. */
function required (value: string, field: string): string {
  const trimmed = value.trim()
  if (trimmed === '') throw validationError([`${field}: must not be blank`])
  return trimmed
}

function newItem (input: GroceryItemInput, field = 'name'): NewGroceryItem {
  const name = required(input.name, field)
  return {
    name,
    quantity: input.quantity ?? null,
    unit: optionalText(input.unit),
    category: input.category ?? aisleFor(name),
    checked: input.checked ?? false,
    note: optionalText(input.note)
  }
}

export function createGroceryListService (fastify: FastifyInstance) {
  const { groceryListsRepository: lists, usersRepository: users } = fastify

  async function get (id: string, viewerId: string, db: Db = fastify.db): Promise<GroceryListView> {
    const list = await lists.find(db, id, viewerId)
    if (list == null) throw new GroceryListNotFound()
    return { ...list, items: await lists.items(db, id, viewerId) }
  }

  /** The list, locked for the transaction, if the user sees it (owner or member of its family); 404 otherwise. */
  async function locked (tx: Db, id: string, userId: string): Promise<GroceryListAccess> {
    const list = await lists.lockVisible(tx, id, userId)
    if (list == null) throw new GroceryListNotFound()
    return list
  }

  /** A list can be shared only with a family the sharer belongs to (any other family is 404 to them). */
  async function checkFamily (db: Db, familyId: string | null | undefined, userId: string): Promise<void> {
    if (familyId != null && await fastify.familiesRepository.roleOf(db, familyId, userId) == null) throw new FamilyNotFound()
  }

  /** Creates a list with its items within the owner's list limit (their row locked: exact under concurrency). */
  async function createList (tx: Db, list: NewGroceryList, items: NewGroceryItem[]): Promise<string> {
    await users.lock(tx, list.userId)
    const used = await lists.countOwned(tx, list.userId)
    if (used >= GROCERY_LIMITS.listsPerUser) throw new GroceryListLimitReached({ limit: GROCERY_LIMITS.listsPerUser, used })
    if (items.length > GROCERY_LIMITS.itemsPerList) throw new GroceryListFull({ limit: GROCERY_LIMITS.itemsPerList, used: items.length })
    await checkFamily(tx, list.familyId, list.userId)
    const id = await lists.insert(tx, list)
    await lists.insertItems(tx, id, items, 0)
    return id
  }

  return {
    get,

    /** What `get` answers, as the JSON PostgreSQL writes (the page's read: one statement, no rows to map). */
    async json (id: string, viewerId: string): Promise<RawJson<GroceryListView>> {
      const list = await lists.json(fastify.db, id, viewerId)
      if (list == null) throw new GroceryListNotFound()
      return list
    },

    async list (userId: string, page: number, limit: number): Promise<Page<GroceryListSummaryView>> {
      return await lists.list(fastify.db, userId, page, limit)
    },

    async create (userId: string, input: GroceryListInput): Promise<GroceryListView> {
      const name = required(input.name, 'name')
      const items = (input.items ?? []).map((item, i) => newItem(item, `items[${i}].name`))
      const id = await fastify.transaction(async tx => await createList(tx, { userId, name, familyId: input.familyId ?? null, mealPlanId: null }, items))
      return await get(id, userId)
    },

    /**
     * A new list from a meal plan the user may see: the ingredients of every planned recipe they may still see,
     * scaled by planned servings / recipe servings, merged and sorted by aisle.
     */
    async fromMealPlan (userId: string, input: FromMealPlanInput): Promise<GroceryListView> {
      const name = input.name === undefined ? undefined : required(input.name, 'name')
      // Reading and merging need no transaction: it holds the owner's row lock only for the writes.
      const plan = await lists.visibleMealPlan(fastify.db, input.mealPlanId, userId)
      if (plan == null) throw new MealPlanNotFound()
      const used = await lists.countOwned(fastify.db, userId)
      if (used >= GROCERY_LIMITS.listsPerUser) throw new GroceryListLimitReached({ limit: GROCERY_LIMITS.listsPerUser, used })
      // A recipe planned many times is read and merged once, with the sum of its meals' factors (scaling is linear).
      const factors = new Map<string, { factor: number, ingredients: unknown }>()
      for (const meal of await lists.plannedIngredients(fastify.db, plan.id, userId)) {
        const entry = factors.get(meal.recipeId) ?? { factor: 0, ingredients: meal.ingredients }
        entry.factor += servingsFactor(meal.plannedServings, meal.recipeServings)
        factors.set(meal.recipeId, entry)
      }
      const contributions: Contribution[] = [...factors].flatMap(([recipeId, { factor, ingredients }]) =>
        (Array.isArray(ingredients) ? normalizeIngredients(ingredients) : []).map(ingredient => ({ ingredient, factor, recipeId })))
      const items = mergeIngredients(contributions, { units: input.units }).map(line => ({ ...line, checked: false }))
      const listName = name ?? [...`Groceries: ${plan.name}`].slice(0, GROCERY_LIMITS.listName).join('').trim()
      const id = await fastify.transaction(async tx =>
        await createList(tx, { userId, name: listName, familyId: input.familyId ?? null, mealPlanId: plan.id }, items))
      return await get(id, userId)
    },

    /** Renames (owner or family member) or shares/unshares (owner only, with a family they belong to). */
    async update (userId: string, id: string, input: GroceryListChanges): Promise<GroceryListView> {
      const name = input.name === undefined ? undefined : required(input.name, 'name')
      return await fastify.transaction(async tx => {
        const list = await locked(tx, id, userId)
        if (input.familyId !== undefined && input.familyId !== list.familyId) {
          if (list.userId !== userId) throw new NotGroceryListOwner()
          await checkFamily(tx, input.familyId, userId)
        }
        await lists.update(tx, id, { name, familyId: input.familyId })
        return await get(id, userId, tx)
      })
    },

    async remove (userId: string, id: string): Promise<void> {
      await fastify.transaction(async tx => {
        const list = await locked(tx, id, userId)
        if (list.userId !== userId) throw new NotGroceryListOwner()
        await lists.remove(tx, id)
      })
    },

    /** Appends an item; the list's row is locked, so the item cap is exact and concurrent adds all land. */
    async addItem (userId: string, id: string, input: GroceryItemInput): Promise<GroceryItemView> {
      const fields = newItem(input)
      return await fastify.transaction(async tx => {
        await locked(tx, id, userId)
        const used = await lists.countItems(tx, id)
        if (used >= GROCERY_LIMITS.itemsPerList) throw new GroceryListFull({ limit: GROCERY_LIMITS.itemsPerList, used })
        const [itemId] = await lists.insertItems(tx, id, [fields])
        await lists.touch(tx, id)
        return (await lists.item(tx, id, itemId, userId))!
      })
    },

    /** Changes some fields of an item (checked, name, amount...); an item of another list is 404. */
    async updateItem (userId: string, id: string, itemId: string, input: GroceryItemChanges): Promise<GroceryItemView> {
      const changes: GroceryItemChangeSet = {
        name: input.name === undefined ? undefined : required(input.name, 'name'),
        quantity: input.quantity,
        unit: input.unit === undefined ? undefined : optionalText(input.unit),
        category: input.category,
        checked: input.checked,
        note: input.note === undefined ? undefined : optionalText(input.note),
        position: input.position
      }
      return await fastify.transaction(async tx => {
        await locked(tx, id, userId)
        const item = await lists.updateItem(tx, id, itemId, changes, userId)
        if (item == null) throw new GroceryItemNotFound()
        await lists.touch(tx, id)
        return item
      })
    },

    async removeItem (userId: string, id: string, itemId: string): Promise<void> {
      await fastify.transaction(async tx => {
        await locked(tx, id, userId)
        if (!(await lists.removeItem(tx, id, itemId))) throw new GroceryItemNotFound()
        await lists.touch(tx, id)
      })
    },

    /** Unchecks every item (a new shopping trip); the list as it is then. */
    async uncheckAll (userId: string, id: string): Promise<GroceryListView> {
      return await fastify.transaction(async tx => {
        await locked(tx, id, userId)
        if (await lists.setAllChecked(tx, id, false) > 0) await lists.touch(tx, id)
        return await get(id, userId, tx)
      })
    },

    /** Removes the checked items (what is already in the basket); how many went, and the list as it is then. */
    async clearChecked (userId: string, id: string): Promise<{ removed: number, groceryList: GroceryListView }> {
      return await fastify.transaction(async tx => {
        await locked(tx, id, userId)
        const removed = await lists.removeChecked(tx, id)
        if (removed > 0) await lists.touch(tx, id)
        return { removed, groceryList: await get(id, userId, tx) }
      })
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('groceryListService', createGroceryListService(fastify))
}, { name: 'grocery-list-service', dependencies: ['grocery-lists-repository', 'families-repository', 'users-repository'] })
