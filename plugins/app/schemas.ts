// Registers every schema with an `$id` that a module in schemas/ exports (no hand-kept list: a family's shared
// shapes are registered by giving them an `$id`), and fills in the error responses every route can produce.
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { tagName } from '../../lib/api-tags.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Errors use the `{ success: false, error, details }` envelope (import and AI routes). */
    envelope?: boolean
  }
}

const SCHEMAS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../schemas')

type ResponseMap = Record<string, unknown>

/** What each error status means, for responses that do not say more themselves. */
const ERROR_DESCRIPTIONS: Record<string, string> = {
  400: 'Invalid input: `details` lists every problem',
  401: 'Missing, invalid, expired or revoked token',
  403: 'Not allowed (for plan limits, `limit` and `used` say which)',
  404: 'Not found, or not visible to you',
  409: 'Conflicts with the current state',
  413: 'Too large: a file over 10 MB, or more parts than the form allows',
  415: 'Unsupported media type: not multipart/form-data, or an image type not allowed here (`details` lists the allowed ones)',
  423: 'Account locked after repeated wrong passwords; `retryAfter` says for how long',
  429: 'Rate limit reached: `limit` names it, `retryAfter` and the Retry-After header say when to try again',
  500: 'Unexpected server error (the body never carries details)',
  503: 'The database or another dependency is unavailable, busy or locked for now: retry after the Retry-After header\'s seconds'
}

const describe = (code: string) => ERROR_DESCRIPTIONS[code] ?? 'Error'

/** Adds `codes` to a route's documented responses, as the error body its family uses, unless already declared. */
export function documentErrors (route: RouteOptions, codes: number[]): void {
  if (route.schema == null || route.schema.hide === true) return
  const response = (route.schema.response ??= {}) as ResponseMap
  const $ref = route.config?.envelope === true ? 'EnvelopeError' : 'ErrorResponse'
  for (const code of codes) response[code] ??= { $ref, description: describe(String(code)) }
}

/** A declared error response without its own description gets the status's description. */
function describeErrors (route: RouteOptions): void {
  const response = route.schema?.response as Record<string, { $ref?: string, description?: string }> | undefined
  for (const [code, schema] of Object.entries(response ?? {})) {
    if (Number(code) >= 400 && schema.$ref != null && schema.description == null) response![code] = { ...schema, description: describe(code) }
  }
}

/** The OpenAPI tag of a route family, from the folder (= prefix) it lives in: `/api/recipe-import` -> `Recipe Import`. */
export function tagOf (prefix: string | undefined): string[] | undefined {
  const family = /^\/api\/([^/]+)/.exec(prefix ?? '')?.[1]
  if (family == null) return undefined
  return [tagName(family)]
}

const isNamedSchema = (value: unknown): value is { $id: string } =>
  value != null && typeof value === 'object' && typeof (value as { $id?: unknown }).$id === 'string'

/** Every `$id` schema exported by schemas/*.ts (or .js once built). */
export async function namedSchemas (): Promise<Array<{ $id: string }>> {
  const files = (await readdir(SCHEMAS_DIR)).filter(file => /\.(ts|js)$/.test(file) && !file.endsWith('.d.ts'))
  const found = new Map<string, { $id: string }>()
  for (const file of files.sort()) {
    const exports: Record<string, unknown> = await import(pathToFileURL(path.join(SCHEMAS_DIR, file)).href)
    for (const value of Object.values(exports)) if (isNamedSchema(value)) found.set(value.$id, value)
  }
  return [...found.values()]
}

export default fp(async fastify => {
  for (const schema of await namedSchemas()) fastify.addSchema(schema)

  fastify.addHook('onRoute', route => {
    const { schema } = route
    if (schema == null) return
    // Folder = prefix = tag: /api/recipe-import/... is documented under "Recipe Import" unless the route says otherwise.
    schema.tags ??= tagOf(route.prefix)
    const takesInput = schema.body != null || schema.querystring != null || schema.params != null
    // Any route may meet the database away or locked (plugins/external/db.ts bounds every wait): 503 with Retry-After.
    documentErrors(route, takesInput ? [400, 500, 503] : [500, 503])
    describeErrors(route)
  })
}, { name: 'schemas' })
