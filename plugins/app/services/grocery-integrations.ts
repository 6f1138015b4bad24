// Where a grocery list can go: downloads in three formats (text, CSV, JSON) and the external shopping services a
// deployment could connect. None of those is configured (no partner credentials exist), so they are listed as
// unavailable with the reason, and nothing here ever calls out over the network.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { contentDisposition, toCsv, toText } from '../../../lib/grocery.js'
import type { ExportFormat, GroceryListView, GroceryProviderView } from '../../../schemas/grocery.js'
import type { Page } from '../repositories/recipes.js'

declare module 'fastify' {
  interface FastifyInstance {
    groceryIntegrationService: ReturnType<typeof createGroceryIntegrationService>
  }
}

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  text: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8'
}

const EXTENSIONS: Record<ExportFormat, string> = { text: 'txt', csv: 'csv', json: 'json' }

const NOT_CONFIGURED = 'Not configured on this server: no partner account or API credentials are set up'

export const GROCERY_PROVIDERS: readonly GroceryProviderView[] = [
  { id: 'text', name: 'Plain text', kind: 'download', available: true, reason: null, contentType: EXPORT_CONTENT_TYPES.text },
  { id: 'csv', name: 'CSV (spreadsheets)', kind: 'download', available: true, reason: null, contentType: EXPORT_CONTENT_TYPES.csv },
  { id: 'json', name: 'JSON', kind: 'download', available: true, reason: null, contentType: EXPORT_CONTENT_TYPES.json },
  { id: 'instacart', name: 'Instacart', kind: 'shopping-service', available: false, reason: NOT_CONFIGURED, contentType: null },
  { id: 'amazon-fresh', name: 'Amazon Fresh', kind: 'shopping-service', available: false, reason: NOT_CONFIGURED, contentType: null },
  { id: 'walmart', name: 'Walmart Grocery', kind: 'shopping-service', available: false, reason: NOT_CONFIGURED, contentType: null }
]

/** A download: its headers and body (a string, or the JSON export object for the response serializer). */
export type GroceryDownload =
  | { contentType: string, contentDisposition: string, format: 'text' | 'csv', body: string }
  | { contentType: string, contentDisposition: string, format: 'json', body: { groceryList: GroceryListView, exportedAt: string } }

export function createGroceryIntegrationService (fastify: FastifyInstance) {
  return {
    /** A page of the providers (a short fixed list). */
    providers (page: number, limit: number): Page<GroceryProviderView> {
      return { items: GROCERY_PROVIDERS.slice((page - 1) * limit, page * limit), total: GROCERY_PROVIDERS.length }
    },

    /** A list the user sees, as a download; `includeChecked: false` leaves the checked items out. */
    async export (userId: string, listId: string, format: ExportFormat, includeChecked: boolean): Promise<GroceryDownload> {
      const list = await fastify.groceryListService.get(listId, userId)
      const items = includeChecked ? list.items : list.items.filter(item => !item.checked)
      const common = { contentType: EXPORT_CONTENT_TYPES[format], contentDisposition: contentDisposition(list.name, EXTENSIONS[format]) }
      if (format === 'json') return { ...common, format, body: { groceryList: { ...list, items }, exportedAt: new Date().toISOString() } }
      return { ...common, format, body: format === 'csv' ? toCsv(items) : toText(list.name, items) }
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('groceryIntegrationService', createGroceryIntegrationService(fastify))
}, { name: 'grocery-integration-service', dependencies: ['grocery-list-service'] })
