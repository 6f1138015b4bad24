// Registers the shared schemas and fills in the error responses every route can produce, so the OpenAPI
// document lists them without each route repeating them.
import type { RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { SHARED_SCHEMAS } from '../../schemas/common.js'
import { Collection } from '../../schemas/collections.js'
import { Comment, ThreadedComment } from '../../schemas/comments.js'
import { RECIPE_SCHEMAS } from '../../schemas/recipes.js'
import { USER_SCHEMAS } from '../../schemas/users.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Errors use the `{ success: false, error, details }` envelope (import and AI routes). */
    envelope?: boolean
  }
}

type ResponseMap = Record<string, unknown>

/** Adds `codes` to a route's documented responses, as the error body its family uses, unless already declared. */
export function documentErrors (route: RouteOptions, codes: number[]): void {
  if (route.schema == null || route.schema.hide === true) return
  const response = (route.schema.response ??= {}) as ResponseMap
  const body = { $ref: route.config?.envelope === true ? 'EnvelopeError' : 'ErrorResponse' }
  for (const code of codes) response[code] ??= body
}

/** The OpenAPI tag of a route family, from the folder (= prefix) it lives in: `/api/recipe-import` -> `Recipe Import`. */
export function tagOf (prefix: string | undefined): string[] | undefined {
  const family = /^\/api\/([^/]+)/.exec(prefix ?? '')?.[1]
  if (family == null) return undefined
  return [family.split('-').map(word => word.charAt(0).toUpperCase() + word.slice(1)).join(' ')]
}

export default fp(async fastify => {
  for (const schema of [...SHARED_SCHEMAS, ...USER_SCHEMAS, ...RECIPE_SCHEMAS, Collection, Comment, ThreadedComment]) fastify.addSchema(schema)

  fastify.addHook('onRoute', route => {
    const { schema } = route
    if (schema == null) return
    // Folder = prefix = tag: /api/recipe-import/... is documented under "Recipe Import" unless the route says otherwise.
    schema.tags ??= tagOf(route.prefix)
    const takesInput = schema.body != null || schema.querystring != null || schema.params != null
    documentErrors(route, takesInput ? [400, 500] : [500])
  })
}, { name: 'schemas' })
