// Finishing touches on the generated OpenAPI document, applied to every operation alike so that typed clients
// (openapi-typescript, SDK generators) get names and optional parameters without each route repeating them.
import type { SwaggerTransform } from '@fastify/swagger'
import type { FastifySchema } from 'fastify'
import { exampleOf, type JsonSchema } from './openapi-examples.js'

interface Schema { $ref?: string, description?: string, default?: unknown, type?: unknown, properties?: Record<string, Schema>, required?: string[] }
interface Parameter { in: string, name: string, required?: boolean, schema?: Schema }
interface Response { description: string, content?: Record<string, { schema?: Schema }> }
interface Operation { operationId?: string, parameters?: Parameter[], requestBody?: { content?: Record<string, { schema?: Schema, example?: unknown }> }, responses?: Record<string, Response> }
interface OpenApiDocument { paths?: Record<string, Record<string, Operation>>, components?: { schemas?: Record<string, Schema> } }

/** `recipes.listRevisions` -> `RecipesListRevisions`. */
function pascalName (operationId: string): string {
  return operationId.split(/[^A-Za-z0-9]+/).filter(Boolean).map(part => part[0].toUpperCase() + part.slice(1)).join('')
}

/** A property with a default may be left out: the server fills it in, so it is not required of the client. */
function withoutRequiredDefaults (schema: Schema): void {
  if (schema.properties == null || schema.required == null) return
  schema.required = schema.required.filter(name => schema.properties?.[name]?.default === undefined)
  if (schema.required.length === 0) delete schema.required
}

/**
 * Inline request and response bodies become components named after the operation (`recipes.create` ->
 * `RecipesCreateBody`, `RecipesCreateResponse`), so a generated client has a type name for each of them. Shapes
 * registered with an `$id` keep their own name.
 */
function nameBodies (operation: Operation, schemas: Record<string, Schema>): void {
  if (operation.operationId == null) return
  const name = pascalName(operation.operationId)
  for (const media of Object.values(operation.requestBody?.content ?? {})) {
    if (media.schema == null || media.schema.$ref != null) continue
    schemas[`${name}Body`] = media.schema
    media.schema = { $ref: `#/components/schemas/${name}Body` }
  }
  const inline = Object.entries(operation.responses ?? {})
    .filter(([, response]) => Object.values(response.content ?? {}).some(media => media.schema != null && media.schema.$ref == null))
  // Bodies that differ only in their description (200 and 503 of one shape) share one name.
  const shape = (response: Response) => JSON.stringify(Object.values(response.content ?? {}).map(media => ({ ...media.schema, description: undefined })))
  const distinct = new Set(inline.map(([, response]) => shape(response)))
  for (const [status, response] of inline) {
    for (const media of Object.values(response.content ?? {})) {
      if (media.schema == null || media.schema.$ref != null) continue
      const component = `${name}Response${distinct.size > 1 ? status : ''}`
      schemas[component] = media.schema
      media.schema = { $ref: `#/components/schemas/${component}` }
    }
  }
}

/** A JSON body's example for Swagger UI's "Try it out" (multipart bodies are files, left alone). */
function addBodyExamples (operation: Operation, schemas: Record<string, Schema>): void {
  const media = operation.requestBody?.content?.['application/json']
  if (media?.schema == null || media.example !== undefined) return
  const resolve = (ref: string) => schemas[ref.replace('#/components/schemas/', '')] as JsonSchema | undefined
  const example = exampleOf(media.schema as JsonSchema, resolve)
  if (example !== undefined) media.example = example
}

/** What the API's and the web proxy's documents share: finished documents, registered schemas under their own names. */
export const documentOptions = {
  transformObject: (document: { openapiObject: object } | { swaggerObject: object }) =>
    finishDocument('openapiObject' in document ? document.openapiObject : document.swaggerObject),
  refResolver: {
    buildLocalReference: (json: { $id?: unknown }, _baseUri: unknown, _fragment: string, i: number) => typeof json.$id === 'string' ? json.$id : `def-${i}`
  }
}

/** Takes @fastify/swagger's document (typed loosely there) and returns it finished. */
export function finishDocument<T extends object> (document: T): T {
  const { paths } = document as OpenApiDocument
  const schemas = (((document as OpenApiDocument).components ??= {}).schemas ??= {})
  for (const item of Object.values(paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'path' && parameter.schema?.default !== undefined) parameter.required = false
      }
      for (const media of Object.values(operation.requestBody?.content ?? {})) if (media.schema != null) withoutRequiredDefaults(media.schema)
      nameBodies(operation, schemas)
      addBodyExamples(operation, schemas)
    }
  }
  return document
}

/**
 * A route's `config.swaggerTransform` for a multipart upload: the handler reads the file itself (lib/multipart-file.ts),
 * so the body exists only in the document, as one binary field.
 */
export function multipartBodyDoc (field: string, description: string): SwaggerTransform {
  return ({ schema, url }) => ({
    url,
    schema: {
      ...schema,
      consumes: ['multipart/form-data'],
      body: { type: 'object', required: [field], properties: { [field]: { type: 'string', format: 'binary', description } } }
    } as FastifySchema
  })
}

/** A route's `config.swaggerTransform` naming its wildcard (`/image/*` -> `/image/{key}`) in the document. */
export function wildcardDoc (name: string): SwaggerTransform {
  return ({ schema, url }) => {
    const params = schema.params as { properties?: Record<string, unknown> } | undefined
    return {
      url: url.replace(/\*$/, `{${name}}`),
      schema: { ...schema, params: { type: 'object', required: [name], properties: { [name]: params?.properties?.['*'] ?? { type: 'string' } } } }
    }
  }
}
