// Grocery lists and their items, the export formats and the export providers (/api/grocerylists,
// /api/grocery-integrations).
import { Type, type Static } from 'typebox'
import { AISLE_LABELS, AISLES, GROCERY_SOURCES_PER_LINE, GROCERY_TEXT_LIMITS, UNIT_SYSTEMS } from '../lib/grocery.js'
import { DateTime, Id, Nullable, ref, StringEnum } from './common.js'

export const GROCERY_LIMITS = {
  listName: 100,
  itemName: GROCERY_TEXT_LIMITS.name,
  unit: GROCERY_TEXT_LIMITS.unit,
  note: GROCERY_TEXT_LIMITS.note,
  /** Items a list holds (exact under concurrent adds). */
  itemsPerList: 500,
  /** Lists a user owns (lists shared with them through a family do not count). */
  listsPerUser: 200,
  quantity: 1_000_000
} as const

export const EXPORT_FORMATS = ['text', 'csv', 'json'] as const
export type ExportFormat = typeof EXPORT_FORMATS[number]

const AISLE_DOC = AISLES.map(aisle => `${aisle} (${AISLE_LABELS[aisle]})`).join(', ')

export const GroceryCategory = StringEnum(AISLES, { description: `Aisle, one of: ${AISLE_DOC}. Lists are ordered in this order.` })

export const GroceryItem = Type.Object({
  id: Id,
  name: Type.String(),
  quantity: Nullable(Type.Number({ description: 'Null: no amount (e.g. "salt to taste")' })),
  unit: Nullable(Type.String({ description: 'e.g. cup, tbsp, g, kg, clove; null for counts' })),
  category: GroceryCategory,
  checked: Type.Boolean(),
  note: Nullable(Type.String()),
  position: Type.Integer({ description: 'Order within the list (after the aisle); new items go last' }),
  recipes: Type.Array(Type.Object({ id: Id, title: Type.String(), slug: Type.String() }), {
    maxItems: GROCERY_SOURCES_PER_LINE,
    description: `The planned recipes a line gathered from a meal plan came from, in plan order (at most ${GROCERY_SOURCES_PER_LINE}): ` +
      'only those you may see now (a recipe deleted or made private since drops out). Empty for lines added by hand.'
  }),
  createdAt: DateTime,
  updatedAt: DateTime
}, { $id: 'GroceryItem', description: 'One line of a grocery list' })
export type GroceryItemView = Static<typeof GroceryItem>

const listFields = {
  id: Id,
  name: Type.String(),
  userId: Id,
  isOwner: Type.Boolean({ description: 'Whether you own the list (only the owner deletes or shares it)' }),
  familyId: Nullable(Id, { description: 'The family the list is shared with: its members see and edit it' }),
  mealPlanId: Nullable(Id, { description: 'The meal plan it was gathered from, if any' }),
  itemCount: Type.Integer({ minimum: 0 }),
  checkedCount: Type.Integer({ minimum: 0 }),
  createdAt: DateTime,
  updatedAt: DateTime
}

export const GroceryListSummary = Type.Object(listFields, { $id: 'GroceryListSummary', description: 'A grocery list without its items' })
export type GroceryListSummaryView = Static<typeof GroceryListSummary>

export const GroceryList = Type.Object({
  ...listFields,
  items: Type.Array(ref(GroceryItem), {
    maxItems: GROCERY_LIMITS.itemsPerList,
    description: `Every item (at most ${GROCERY_LIMITS.itemsPerList}), ordered by aisle (${AISLES.join(', ')}), then position`
  })
}, { $id: 'GroceryList', description: 'A grocery list with its items' })
export type GroceryListView = Static<typeof GroceryList>

const listName = Type.String({ minLength: 1, maxLength: GROCERY_LIMITS.listName, description: `Trimmed; must not be blank; at most ${GROCERY_LIMITS.listName} characters` })
const familyId = Nullable(Id, { description: 'Share with this family (you must be a member); null: not shared' })

export const GroceryItemBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: GROCERY_LIMITS.itemName, description: `Trimmed; must not be blank; at most ${GROCERY_LIMITS.itemName} characters` }),
  quantity: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0, maximum: GROCERY_LIMITS.quantity }))),
  unit: Type.Optional(Nullable(Type.String({ maxLength: GROCERY_LIMITS.unit, description: `At most ${GROCERY_LIMITS.unit} characters` }))),
  category: Type.Optional(StringEnum(AISLES, { description: 'Aisle; when left out, guessed from the name (unknown: other)' })),
  checked: Type.Optional(Type.Boolean()),
  note: Type.Optional(Nullable(Type.String({ maxLength: GROCERY_LIMITS.note, description: `At most ${GROCERY_LIMITS.note} characters` })))
})
export type GroceryItemInput = Static<typeof GroceryItemBody>

export const GroceryItemPatchBody = Type.Object({
  ...Type.Partial(GroceryItemBody).properties,
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Order within the aisle' }))
})
export type GroceryItemChanges = Static<typeof GroceryItemPatchBody>

export const GroceryListCreateBody = Type.Object({
  name: listName,
  familyId: Type.Optional(familyId),
  items: Type.Optional(Type.Array(GroceryItemBody, { maxItems: GROCERY_LIMITS.itemsPerList, description: `At most ${GROCERY_LIMITS.itemsPerList}` }))
})
export type GroceryListInput = Static<typeof GroceryListCreateBody>

export const GroceryListUpdateBody = Type.Object({
  name: Type.Optional(listName),
  familyId: Type.Optional(familyId)
})
export type GroceryListChanges = Static<typeof GroceryListUpdateBody>

export const FromMealPlanBody = Type.Object({
  mealPlanId: Id,
  name: Type.Optional(Type.String({ minLength: 1, maxLength: GROCERY_LIMITS.listName, description: 'Default: "Groceries: <plan name>"' })),
  familyId: Type.Optional(familyId),
  units: Type.Optional(StringEnum(UNIT_SYSTEMS, {
    description: 'Volumes and masses in metric (ml, l, g, kg) or US units (tsp, tbsp, cup, oz, lb). Default: as the recipes mostly give them'
  }))
})
export type FromMealPlanInput = Static<typeof FromMealPlanBody>

export const GroceryProvider = Type.Object({
  id: Type.String({ description: 'text, csv, json, or an external shopping service' }),
  name: Type.String(),
  kind: StringEnum(['download', 'shopping-service'] as const, { description: 'download: GET /api/grocery-integrations/export/{listId}?format=<id>' }),
  available: Type.Boolean(),
  reason: Nullable(Type.String({ description: 'Why it is not available' })),
  contentType: Nullable(Type.String({ description: 'What a download answers' }))
}, { $id: 'GroceryProvider', description: 'A way to take a grocery list elsewhere' })
export type GroceryProviderView = Static<typeof GroceryProvider>

export const GroceryListText = Type.String({
  $id: 'GroceryListText',
  description: 'The list as plain text: its name, then one block per aisle with "[ ]" (or "[x]" when checked) lines'
})
export const GroceryListCsv = Type.String({
  $id: 'GroceryListCsv',
  description: 'RFC 4180 CSV with CRLF line ends: header Name,Quantity,Unit,Category,Checked,Note, then one row per item in ' +
    'aisle order. A cell starting with = + - @, a tab or a carriage return gets a leading apostrophe (spreadsheet formula injection).'
})
export const GroceryListExport = Type.Object({
  groceryList: ref(GroceryList),
  exportedAt: DateTime
}, { $id: 'GroceryListExport', description: 'The list as JSON' })
