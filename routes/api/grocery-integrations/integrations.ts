// Grocery integrations: the providers a list can go to, and a list as a download (text, CSV or JSON).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { ErrorRef, Id, pagination, Pagination, PaginationQuery, ref, StringEnum } from '../../../schemas/common.js'
import { EXPORT_FORMATS, GroceryListCsv, GroceryListExport, GroceryListText, GroceryProvider } from '../../../schemas/grocery.js'

const integrations: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.groceryIntegrationService

  fastify.get('/', {
    schema: {
      operationId: 'groceryIntegrations.list',
      summary: 'Where a grocery list can go: downloads and shopping services',
      description: 'The downloads text, csv and json are always available (GET /api/grocery-integrations/export/{listId}?format=). ' +
        'External shopping services (Instacart, Amazon Fresh, Walmart) are listed with available: false and the reason: ' +
        'none is configured on this server, and no list is ever sent anywhere.',
      querystring: PaginationQuery,
      response: { 200: Type.Object({ providers: Type.Array(ref(GroceryProvider)), pagination: ref(Pagination) }, { description: 'A page of providers' }) }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = service.providers(page, limit)
    return { providers: items, pagination: pagination(page, limit, total) }
  })

  fastify.get('/export/:listId', {
    schema: {
      operationId: 'groceryIntegrations.export',
      summary: 'Download a grocery list as text, CSV or JSON',
      description: 'Any list you can see (yours, or shared with your family; anyone else\'s is 404). Answers an attachment ' +
        'named after the list: Content-Disposition `attachment; filename="<slug>.txt|csv|json"` (ASCII letters, digits and ' +
        'hyphens), plus `filename*` (RFC 6266, UTF-8) when the name has other characters. Items come in aisle order. ' +
        'CSV follows RFC 4180 and defuses spreadsheet formulas (a leading apostrophe on cells starting with = + - @, tab or CR).',
      params: Type.Object({ listId: Id }),
      querystring: Type.Object({
        format: StringEnum(EXPORT_FORMATS, { default: 'text', description: 'text (text/plain), csv (text/csv) or json (application/json)' }),
        includeChecked: Type.Boolean({ default: true, description: 'false: leave checked items out' })
      }),
      response: {
        200: {
          description: 'The list as a file (Content-Disposition: attachment)',
          headers: {
            'content-disposition': { type: 'string', description: 'attachment; filename="<slug>.<ext>"[; filename*=UTF-8\'\'<name>]' }
          },
          content: {
            'text/plain': { schema: ref(GroceryListText) },
            'text/csv': { schema: ref(GroceryListCsv) },
            'application/json': { schema: ref(GroceryListExport) }
          }
        },
        404: ErrorRef
      }
    }
  }, async (request, reply) => {
    const { format, includeChecked } = request.query
    const download = await service.export(currentUser(request).id, request.params.listId, format, includeChecked)
    reply.type(download.contentType).header('content-disposition', download.contentDisposition).header('cache-control', 'private, no-store')
    return await reply.send(download.body)
  })
}

export default integrations
