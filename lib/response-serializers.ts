// Response serializers (fast-json-stringify), compiled once per distinct schema in a process. fast-json-stringify
// checks and indexes every external schema it is handed on every compile: given all 73 shared schemas for each route,
// start-up spent most of its time validating the same schemas again (about 1 s an instance). Each compile now gets
// the shared schemas its route refers to, and instances of one process (the test suite builds many) share the result.
import { createHash } from 'node:crypto'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'

type Serializer = (data: unknown) => string
type Schemas = Record<string, unknown>

const compilerFor = SerializerSelector()

/** Serializers by a digest of everything that decides their code; serializers are pure functions of their schemas. */
const compiled = new Map<string, Serializer>()

/** Descriptions (text only) do not change how a body is written: every route documents the same error body. */
const withoutDescriptions = (name: string, value: unknown): unknown => name === 'description' && typeof value === 'string' ? undefined : value

/** The shared schemas `schema` refers to by `$ref`, with those they refer to in turn. */
export function referencedSchemas (schema: unknown, shared: Schemas): Schemas {
  const picked: Schemas = {}
  const visit = (node: unknown): void => {
    if (node == null || typeof node !== 'object') return
    if (Array.isArray(node)) {
      for (const item of node) visit(item)
      return
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== '$ref' || typeof value !== 'string') {
        visit(value)
        continue
      }
      const id = value.split('#')[0]
      if (id !== '' && !(id in picked) && shared[id] != null) {
        picked[id] = shared[id]
        visit(shared[id])
      }
    }
  }
  visit(schema)
  return picked
}

/** Fastify's `buildSerializer` factory (schemaController.compilersFactory). */
export function buildSerializer (externalSchemas: unknown, serializerOptions: unknown): (route: { schema: { $id?: string, [key: string]: unknown } }) => Serializer {
  const shared = (externalSchemas ?? {}) as Schemas
  return route => {
    const used = referencedSchemas(route.schema, shared)
    // A schema is never its own external (as @fastify/fast-json-stringify-compiler does).
    if (route.schema.$id != null) delete used[route.schema.$id]
    const key = createHash('sha256').update(JSON.stringify([serializerOptions, used, route.schema], withoutDescriptions)).digest('base64url')
    let serializer = compiled.get(key)
    if (serializer == null) {
      serializer = compilerFor(used as never, serializerOptions as never)(route as never) as Serializer
      compiled.set(key, serializer)
    }
    return serializer
  }
}
