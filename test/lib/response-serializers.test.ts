// Response serializers get only the shared schemas their route refers to, and are compiled once per process.
import t from 'tap'
import { buildSerializer, referencedSchemas } from '../../lib/response-serializers.js'

const shared = {
  Author: { $id: 'Author', type: 'object', properties: { name: { type: 'string' } } },
  Recipe: { $id: 'Recipe', type: 'object', properties: { title: { type: 'string' }, author: { $ref: 'Author#' } } },
  Error: { $id: 'Error', type: 'object', properties: { error: { type: 'string' } } },
  Unused: { $id: 'Unused', type: 'object', properties: { x: { type: 'number' } } }
}

t.test('the referenced shared schemas, transitively; local and unknown references are left to the compiler', async t => {
  const schema = { type: 'object', properties: { recipes: { type: 'array', items: { $ref: 'Recipe' } }, self: { $ref: '#/properties/recipes' } } }
  t.same(Object.keys(referencedSchemas(schema, shared)).sort(), ['Author', 'Recipe'])
  t.same(referencedSchemas({ $ref: 'Nowhere' }, shared), {})
  t.same(Object.keys(referencedSchemas({ anyOf: [{ $ref: 'Error' }, { $ref: 'Error#/properties/error' }] }, shared)), ['Error'])
})

t.test('bodies are written as with every shared schema, and each distinct schema is compiled once per process', async t => {
  const route = { schema: { type: 'object', properties: { recipe: { $ref: 'Recipe#' } }, description: 'one' } }
  const first = buildSerializer(shared, {})(route)
  t.equal(first({ recipe: { title: 'Soup', author: { name: 'Ann', secret: 1 }, extra: true } }),
    '{"recipe":{"title":"Soup","author":{"name":"Ann"}}}', 'nested shared schemas applied, unknown fields dropped')
  const otherInstance = buildSerializer({ ...shared }, {})
  t.equal(otherInstance({ schema: { ...route.schema, description: 'another text' } }), first, 'same schema in another instance: the same serializer')
  t.not(otherInstance({ schema: { type: 'object', properties: { error: { $ref: 'Error#/properties/error' } } } }), first, 'another schema: its own')
  const changed = { ...shared, Author: { $id: 'Author', type: 'object', properties: { name: { type: 'string' }, secret: { type: 'number' } } } }
  const changedSerializer = buildSerializer(changed, {})(route)
  t.not(changedSerializer, first, 'a changed shared schema it refers to: compiled anew')
  t.equal(changedSerializer({ recipe: { title: 'Soup', author: { name: 'Ann', secret: 1 } } }), '{"recipe":{"title":"Soup","author":{"name":"Ann","secret":1}}}')
  t.equal(buildSerializer({ ...shared, Unused: { $id: 'Unused', type: 'string' } }, {})(route), first, 'a change to a schema it does not use: the same one')
})
