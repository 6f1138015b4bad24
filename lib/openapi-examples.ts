// Examples for request bodies in the OpenAPI document, built from their schemas: Swagger UI's "Try it out" starts
// from them, so each must pass its own schema (test/app/openapi.test.ts checks every one). A property whose value
// cannot be guessed from its type (a pattern, an id) carries `examples` in its schema, and those win.

export interface JsonSchema {
  $ref?: string
  type?: string | string[]
  examples?: unknown[]
  example?: unknown
  default?: unknown
  const?: unknown
  enum?: unknown[]
  format?: string
  minLength?: number
  minimum?: number
  exclusiveMinimum?: number
  minItems?: number
  items?: JsonSchema
  properties?: Record<string, JsonSchema>
  required?: string[]
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
}

const BY_FORMAT: Record<string, string> = {
  email: 'cook@example.com',
  uri: 'https://example.com/recipes/lemon-pancakes',
  url: 'https://example.com/recipes/lemon-pancakes',
  'date-time': '2026-05-01T08:00:00.000Z',
  date: '2026-05-01',
  time: '08:00:00',
  uuid: '3f0c2b9e-8a41-4d2b-9a57-1c3e2f4d5a6b'
}

/** A plausible value for a property, by its name, when its schema says only "a string". */
const BY_NAME: Record<string, string> = {
  title: 'Lemon pancakes',
  name: 'Weeknight dinners',
  description: 'Fluffy pancakes with lemon zest',
  text: '2 cups flour',
  content: 'Lovely with blueberries too.',
  password: 'Pancakes4Breakfast',
  currentPassword: 'Pancakes4Breakfast',
  newPassword: 'Waffles4Breakfast',
  username: 'lemon_cook',
  identifier: 'lemon_cook',
  cuisine: 'French',
  category: 'Breakfast',
  message: 'The import page shows an empty preview.',
  reason: 'Spam',
  prompt: 'A quick vegetarian dinner with lentils'
}

function stringExample (schema: JsonSchema, name: string | undefined): string {
  if (schema.format != null && BY_FORMAT[schema.format] != null) return BY_FORMAT[schema.format]
  const byName = name == null ? undefined : BY_NAME[name]
  const text = byName ?? 'text'
  return text.length >= (schema.minLength ?? 0) ? text : text.padEnd(schema.minLength ?? 0, 'x')
}

/**
 * An example of `schema`: its own example, else one made from its parts (required properties only, the first branch
 * of a union that is not null, the smallest number and list allowed). `resolve` follows a `$ref`.
 */
export function exampleOf (schema: JsonSchema, resolve: (ref: string) => JsonSchema | undefined, name?: string, depth = 0): unknown {
  if (depth > 12) return undefined
  if (schema.examples?.length) return schema.examples[0]
  if (schema.example !== undefined) return schema.example
  if (schema.$ref != null) {
    const target = resolve(schema.$ref)
    return target == null ? undefined : exampleOf(target, resolve, name, depth + 1)
  }
  if (schema.const !== undefined) return schema.const
  if (schema.enum?.length) return schema.enum[0]
  if (schema.default !== undefined) return schema.default
  const union = schema.anyOf ?? schema.oneOf
  if (union != null) {
    const branch = union.find(option => option.type !== 'null') ?? union[0]
    return exampleOf(branch, resolve, name, depth + 1)
  }
  if (schema.allOf != null) {
    const parts = schema.allOf.map(part => exampleOf(part, resolve, name, depth + 1))
    return parts.every(part => part != null && typeof part === 'object' && !Array.isArray(part)) ? Object.assign({}, ...parts) : parts[0]
  }
  const type = Array.isArray(schema.type) ? schema.type.find(t => t !== 'null') : schema.type
  switch (type) {
    case 'object': {
      const example: Record<string, unknown> = {}
      for (const key of schema.required ?? []) {
        const property = schema.properties?.[key]
        if (property != null) example[key] = exampleOf(property, resolve, key, depth + 1)
      }
      // Optional properties with a chosen example make a fuller body to start from.
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        if (!(key in example) && property.examples?.length) example[key] = property.examples[0]
      }
      return example
    }
    case 'array': {
      const item = schema.items == null ? 'text' : exampleOf(schema.items, resolve, name, depth + 1)
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => item)
    }
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum == null ? 1 : schema.exclusiveMinimum + 1)
    case 'boolean':
      return true
    case 'string':
      return stringExample(schema, name)
    default:
      return undefined
  }
}
