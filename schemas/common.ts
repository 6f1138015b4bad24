// Shapes shared by every family. The `$id` ones are registered once (plugins/app/schemas.ts) and referenced by name.
import { Type, type Static, type TSchema } from 'typebox'

export const ErrorResponse = Type.Object({
  error: Type.String(),
  details: Type.Optional(Type.Array(Type.String())),
  retryAfter: Type.Optional(Type.Integer({ description: 'Seconds until the request may be retried (423, 429)' })),
  limit: Type.Optional(Type.Union([
    Type.Integer({ description: 'Plan limit that was reached (403)' }),
    Type.Union([Type.Literal('global'), Type.Literal('router'), Type.Literal('auth')], { description: 'Rate limit that was reached (429)' })
  ])),
  used: Type.Optional(Type.Integer({ description: 'Usage counted against the limit' }))
}, { $id: 'ErrorResponse', description: 'Error body' })

export const EnvelopeError = Type.Object({
  success: Type.Literal(false),
  error: Type.String(),
  details: Type.Array(Type.String())
}, { $id: 'EnvelopeError', description: 'Error body of the import and AI routes' })

export const Pagination = Type.Object({
  page: Type.Integer({ minimum: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 50 }),
  total: Type.Integer({ minimum: 0 }),
  totalPages: Type.Integer({ minimum: 0 }),
  hasNext: Type.Boolean(),
  hasPrev: Type.Boolean(),
  totalExact: Type.Boolean({
    description: 'false when `total` is a lower bound: the recipe listing counts filtered matches up to 10,000. ' +
      '`hasNext` is exact either way.'
  })
}, { $id: 'Pagination' })

/** A `$ref` to a registered schema that keeps its static type. */
export function ref<T extends TSchema> (schema: T) {
  const { $id } = schema as { $id?: string }
  if ($id == null) throw new Error('ref() needs a schema with an $id')
  return Type.Unsafe<Static<T>>({ $ref: $id })
}

/** Deepest page a list serves: offsets stay bounded. */
export const MAX_PAGE = 10_000

export const PaginationQuery = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 50, default: 12 })
})

/**
 * The pagination block of a list. Lists that fetch one row past the page pass `hasNext`; a capped count passes
 * `totalExact: false`.
 */
export function pagination (page: number, limit: number, total: number, known: { hasNext?: boolean, totalExact?: boolean } = {}): Static<typeof Pagination> {
  const totalPages = Math.ceil(total / limit)
  return { page, limit, total, totalPages, hasNext: known.hasNext ?? page < totalPages, hasPrev: page > 1, totalExact: known.totalExact ?? true }
}

/**
 * `T` or null. A scalar becomes one schema with a `type` list (`["string", "null"]`, OpenAPI 3.1): response
 * serializers write it directly, where an `anyOf` makes them validate every value against each option first.
 */
export function Nullable<T extends TSchema> (schema: T, options: Record<string, unknown> = {}) {
  const { type, enum: values } = schema as { type?: unknown, enum?: unknown[] }
  if (typeof type === 'string' && type !== 'object' && type !== 'array' && type !== 'null') {
    return Type.Unsafe<Static<T> | null>({ ...schema, ...options, type: [type, 'null'], ...(values != null && { enum: [...values, null] }) })
  }
  return Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()], options))
}

export const Id = Type.String({ minLength: 1, maxLength: 64, description: 'Opaque CUID identifier' })
export const DateTime = Type.String({ format: 'date-time' })
export const Message = Type.Object({ message: Type.String() })

/** The shared error body, by reference (documents 4xx responses a route can give). */
export const ErrorRef = ref(ErrorResponse)

/** A string from a fixed list (`enum`, so validation errors list the allowed values). */
export function StringEnum<const T extends readonly string[]> (values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })
}

/** The schema of a response, with the description the OpenAPI document shows for it on this route. */
export const described = <T extends TSchema>(description: string, schema: T): T => ({ ...schema, description })

/** Path parameters are named for what they take: `{recipeId}` is a recipe id (never a slug). */
export const RecipeParams = Type.Object({ recipeId: Id })
