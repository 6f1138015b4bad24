// The older search entry points: /api/search -> /api/search/recipes -> /api/recipes?search=<text>.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'

const Query = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  query: Type.Optional(Type.String({ maxLength: 200, description: 'Alias of q' }))
})
const Redirect = (target: string) => Type.Null({
  description: `Redirect to ${target}`,
  headers: { Location: Type.String({ description: target }) }
})
const FOLLOW = 'HTTP clients that follow redirects (fetch, openapi-fetch) end at GET /api/recipes (operation ' +
  '`recipes.list`) and receive its response: `{ recipes, pagination }`. New code can call that operation directly.'

const search: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get('/', {
    schema: {
      operationId: 'search.redirect',
      summary: 'Search recipes (redirects to /api/search/recipes)',
      description: FOLLOW,
      querystring: Query,
      response: { 302: Redirect('/api/search/recipes?q=<text>') }
    }
  }, async (request, reply) => {
    const text = request.query.q ?? request.query.query ?? ''
    return await reply.redirect(`/api/search/recipes?q=${encodeURIComponent(text)}`, 302)
  })

  fastify.get('/recipes', {
    schema: {
      operationId: 'search.recipes',
      summary: 'Search recipes (redirects to /api/recipes?search=)',
      description: FOLLOW,
      querystring: Query,
      response: { 302: Redirect('/api/recipes?search=<text> (URL-encoded)') }
    }
  }, async (request, reply) => {
    const text = request.query.q ?? request.query.query ?? ''
    return await reply.redirect(`/api/recipes?search=${encodeURIComponent(text)}`, 302)
  })
}

export default search
