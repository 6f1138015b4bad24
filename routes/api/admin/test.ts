// A cheap check that an admin token works.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { currentAdmin } from '../../../plugins/app/admin-auth.js'
import { AdminTestResponse } from '../../../schemas/admin.js'

const adminTest: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get('/test', {
    schema: { operationId: 'admin.test', summary: 'Check an admin token', response: { 200: AdminTestResponse } }
  }, async request => ({ message: 'Admin access granted', admin: currentAdmin(request).id }))
}

export default adminTest
