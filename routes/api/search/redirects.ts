// The older search entry points: /api/search -> /api/search/recipes -> /api/recipes?search=<text>.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'

const Query = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  query: Type.Optional(Type.String({ maxLength: 200, description: 'Alias of q' }))
})
const Redirect = Type.Null({ description: 'Redirect; see the Location header' })

const search: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get('/', {
    schema: { summary: 'Redirects to /api/search/recipes', querystring: Query, response: { 302: Redirect } }
  }, async (request, reply) => {
    const text = request.query.q ?? request.query.query ?? ''
    return await reply.redirect(`/api/search/recipes?q=${encodeURIComponent(text)}`, 302)
  })

  fastify.get('/recipes', {
    schema: { summary: 'Redirects to /api/recipes?search=', querystring: Query, response: { 302: Redirect } }
  }, async (request, reply) => {
    const text = request.query.q ?? request.query.query ?? ''
    return await reply.redirect(`/api/recipes?search=${encodeURIComponent(text)}`, 302)
  })
}

export default search
