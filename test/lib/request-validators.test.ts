// Request validators are compiled once per distinct schema in a process, per mode (query and params coerced, bodies
// not, headers kept whole), and a changed set of shared schemas compiles anew.
import t from 'tap'
import { buildValidator, type AjvOptions } from '../../lib/request-validators.js'

const options: AjvOptions = { customOptions: { removeAdditional: 'all', coerceTypes: 'array', useDefaults: true, allErrors: true } }
const shared = {
  Tag: { $id: 'Tag', type: 'object', properties: { name: { type: 'string', minLength: 2 } }, required: ['name'] }
}
const limitQuery = { type: 'object', properties: { limit: { type: 'integer', default: 12 } } }

t.test('query and params are coerced, bodies are not, headers keep what the schema does not name', async t => {
  const compile = buildValidator(shared, options)
  const query: Record<string, unknown> = { limit: '5', other: 'x' }
  t.ok(compile({ schema: limitQuery, httpPart: 'querystring' })(query), 'a number in text passes in a query')
  t.same(query, { limit: 5 }, 'coerced, unknown fields removed')
  const body = { limit: '5' }
  const validateBody = compile({ schema: limitQuery, httpPart: 'body' })
  t.notOk(validateBody(body), 'the same text is an error in a body')
  t.match(validateBody.errors, [{ instancePath: '/limit' }], 'with its errors on the function')
  const headers: Record<string, unknown> = { limit: '5', 'content-type': 'multipart/form-data; boundary=x' }
  t.ok(compile({ schema: limitQuery, httpPart: 'headers' })(headers))
  t.equal(headers['content-type'], 'multipart/form-data; boundary=x', 'headers the schema does not name are kept')
})

t.test('each distinct schema is compiled once per process and mode; shared schemas are applied', async t => {
  const route = { schema: { type: 'object', properties: { tag: { $ref: 'Tag#' } } }, httpPart: 'body' }
  const first = buildValidator(shared, options)(route)
  t.notOk(first({ tag: { name: 'x' } }), 'the shared schema\'s rule applies')
  t.ok(first({ tag: { name: 'soup' } }))
  const otherContext = buildValidator({ ...shared }, options)
  t.equal(otherContext({ schema: structuredClone(route.schema), httpPart: 'body' }), first, 'the same schema in another context: the same validator')
  t.not(otherContext({ schema: structuredClone(route.schema), httpPart: 'querystring' }), first, 'another mode: its own')
  const changed = { Tag: { ...shared.Tag, properties: { name: { type: 'string', minLength: 1 } } } }
  const changedValidator = buildValidator(changed, options)(route)
  t.not(changedValidator, first, 'a changed shared schema: compiled anew')
  t.ok(changedValidator({ tag: { name: 'x' } }), 'with the changed rule')
  t.not(buildValidator(shared, { ...options, customOptions: { ...options.customOptions, allErrors: false } })(route), first,
    'other Ajv options: compiled anew')
})
