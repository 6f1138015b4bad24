import { readdirSync } from 'node:fs'
import SwaggerParser from '@apidevtools/swagger-parser'
import { Ajv } from 'ajv'
import formats from 'ajv-formats'
import t from 'tap'
import { passwordRule } from '../../lib/ajv-keywords.js'
import { API_TAGS } from '../../lib/api-tags.js'
import { build, json } from '../helper.js'

t.test('OpenAPI document', async t => {
  const app = await build(t)

  const ui = await app.inject('/api/docs')
  t.equal(ui.statusCode, 200, 'Swagger UI is served')
  t.match(ui.headers['content-type'], /text\/html/)

  const res = await app.inject('/api/docs/json')
  t.equal(res.statusCode, 200)
  const doc = json(res)
  t.equal(doc.openapi, '3.1.0')

  // A real validator: throws on any structural or reference error.
  // The parser mutates its input (dereferencing), so it gets a copy.
  const validated = await SwaggerParser.validate(structuredClone(doc) as never)
  t.ok((validated as { info?: unknown }).info, 'document validates')

  // Swagger UI's "Try it out" starts from each JSON body's example: every one must pass the route's own rules.
  const ajv = passwordRule(formats.default(new Ajv({ strict: false, allErrors: true })))
  const failing: string[] = []
  let bodies = 0
  for (const [path, item] of Object.entries((validated as unknown as typeof doc).paths as Record<string, Record<string, Operation>>)) {
    for (const [method, op] of Object.entries(item)) {
      const media = op.requestBody?.content?.['application/json']
      if (media?.schema == null) continue
      bodies++
      if (media.example === undefined) {
        failing.push(`${method} ${path}: no example`)
        continue
      }
      const check = ajv.compile(media.schema)
      if (!check(structuredClone(media.example))) failing.push(`${method} ${path}: ${ajv.errorsText(check.errors)} in ${JSON.stringify(media.example)}`)
    }
  }
  t.ok(bodies >= 60, `${bodies} JSON bodies`)
  t.same(failing, [], 'every JSON body has an example that passes its schema')

  t.ok(doc.components.schemas.ErrorResponse, 'ErrorResponse registered once, by name')
  t.ok(doc.components.schemas.Pagination, 'Pagination registered once, by name')
  t.ok(doc.paths['/readyz']?.get, '/readyz documented')
  t.same(doc.paths['/readyz'].get.tags, ['Operations'])
  t.ok(doc.paths['/readyz'].get.responses['503'], 'readiness failure documented')
  t.ok(doc.paths['/healthz']?.get, '/healthz documented')
  t.notOk(Object.keys(doc.paths).some(p => p.startsWith('/api/docs')), 'the docs routes themselves are hidden')

  // One walk over the operations; each check collects the operations that break it, so a failure names them all and
  // a pass is one assertion per rule, not one per operation.
  const operations = Object.entries<Record<string, { responses: Record<string, unknown>, security?: unknown[], tags?: string[] }>>(doc.paths)
    .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op, name: `${method} ${path}` })))
  t.same(operations.filter(({ op }) => !['200', '201', '204', '302'].some(status => op.responses[status] != null)).map(o => o.name), [],
    'every operation documents a success response')
  t.same(operations.filter(({ op }) => op.responses['500'] == null).map(o => o.name), [], 'every operation documents 500')
  t.match(JSON.stringify(doc.paths['/readyz'].get.responses['500']), /#\/components\/schemas\/ErrorResponse/)

  // An operation that turns an anonymous caller away documents that 401 (and its Bearer security): one anonymous
  // request per operation finds them.
  const guarded: typeof operations = []
  for (const operation of operations) {
    const probe = await app.inject({ method: operation.method.toUpperCase() as 'GET', url: operation.path.replace(/\{[^}]+\}/g, 'placeholder1') })
    if (probe.statusCode === 401) guarded.push(operation)
  }
  t.ok(guarded.length >= 50, `${guarded.length} operations turn anonymous callers away`)
  t.same(guarded.filter(({ op }) => op.responses['401'] == null).map(o => o.name), [], 'each of them documents 401')
  t.same(guarded.filter(({ op }) => !(op.security?.length ?? 0)).map(o => o.name), [], 'each of them documents its security')

  // Folder = prefix = tag: every family under routes/api is documented, each operation under its folder's tag.
  const families = readdirSync('routes/api', { withFileTypes: true }).filter(d => d.isDirectory()).map(d => d.name)
  t.ok(families.length >= 15, `${families.length} families`)
  const familyOf = (path: string) => families.find(family => path === `/api/${family}` || path.startsWith(`/api/${family}/`))
  t.same(families.filter(family => !operations.some(({ path }) => familyOf(path) === family)), [], 'every family is documented')
  const tagOf = (family: string) => API_TAGS.find(tag => tag.family === family)?.name
  t.same(families.filter(family => tagOf(family) == null), [], 'every family has a named, described tag')
  t.same(doc.tags.map((tag: { name: string }) => tag.name), [...API_TAGS.map(tag => tag.name), 'Operations'], 'tags in reading order')
  t.same(doc.tags.filter((tag: { description?: string }) => !(tag.description ?? '').length), [], 'each with a description')
  t.equal(doc.tags[0].name, 'Auth', 'signing in comes first')
  t.same(doc.tags.slice(-2).map((tag: { name: string }) => tag.name), ['Admin', 'Operations'], 'the admin API last')
  for (const name of ['GDPR', 'CCPA', 'Grocery Lists', 'Meal Plans', 'AI Recipes']) t.ok(doc.tags.some((tag: { name: string }) => tag.name === name), name)
  t.match(doc.info.description, /## Authentication[\s\S]*Authorization: Bearer <token>/, 'the description says how to authenticate')
  t.same(operations.filter(({ path, op }) => familyOf(path) != null && JSON.stringify(op.tags) !== JSON.stringify([tagOf(familyOf(path)!)]))
    .map(({ name, op }) => `${name}: ${JSON.stringify(op.tags)}`), [], 'every operation is tagged with its folder')
})

interface Operation {
  operationId?: string
  summary?: string
  parameters?: Array<{ in: string, name: string, required?: boolean, schema?: { default?: unknown } }>
  responses: Record<string, { description: string, content?: Record<string, { schema: { $ref?: string } }> }>
  requestBody?: { content?: Record<string, { schema?: object, example?: unknown }> }
}

/** Lists that are deliberately not page-numbered, each with the cap or reason its description states. */
const UNPAGED = new Map([
  ['recipes.popular', /at most 50/],
  ['recipes.cuisines', /capped at 100/],
  ['recipes.commonIngredients', /capped at 50/],
  ['users.recent', /at most 50/],
  ['users.search', /at most `limit` \(50\)/],
  ['subscriptionPlans.list', /handful of plans/],
  ['feed.get', /Cursor-paged/],
  ['aiRecipes.searchByIngredients', /at most 50/],
  ['admin.auth.sessions', /at most 100/],
  ['admin.auth.mfaEnable', /10 backup codes/],
  ['admin.featureFlags.list', /handful of flags/],
  ['admin.plans.list', /handful of plans/],
  ['admin.analytics.get', /Not a paged list/],
  ['analytics.get', /Not a paged list/],
  ['recipeImport.preview', /at most 10 \(not paged\)/],
  ['tiktok.preview', /at most 10 \(not paged\)/]
])

t.test('generated clients: names, descriptions, optional defaults, paged lists (issue 10)', async t => {
  const app = await build(t)
  const doc = json(await app.inject('/api/docs/json'))
  const schemas: Record<string, { properties?: Record<string, { type?: string, $ref?: string }> }> = doc.components.schemas
  const operations = Object.entries<Record<string, Operation>>(doc.paths)
    .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op, name: `${method} ${path}` })))
  t.ok(operations.length >= 80, `${operations.length} operations`)

  const ids = operations.map(({ op }) => op.operationId)
  // The admin family has areas of its own: admin.users.list, admin.auth.login.
  t.same(ids.filter(id => id == null || !/^([a-z][A-Za-z]*|admin\.[a-z][A-Za-z]*)\.[a-z][A-Za-z]*$/.test(id)), [],
    'every operation has an operationId family.verb (admin.area.verb)')
  t.equal(new Set(ids).size, ids.length, 'operationIds are unique')
  t.equal(doc.paths['/api/recipes'].get.operationId, 'recipes.list')

  const offenders = (check: (o: typeof operations[number]) => string[]) => operations.flatMap(check)
  t.same(offenders(({ op, name }) => op.summary ? [] : [name]), [], 'every operation has a summary')
  t.same(offenders(({ op, name }) => Object.entries(op.responses)
    .filter(([, response]) => ['Default Response', 'Error body', ''].includes(response.description))
    .map(([status, response]) => `${name} ${status}: ${response.description}`)), [], 'every response is described')
  t.same(offenders(({ op, name }) => Object.entries(op.responses)
    .flatMap(([status, response]) => Object.values(response.content ?? {}).filter(media => media.schema.$ref == null).map(() => `${name} ${status}`))),
  [], 'every response body is a named schema')
  t.same(offenders(({ op, name }) => (op.parameters ?? []).filter(p => p.required === true && p.schema?.default !== undefined).map(p => `${name}: ${p.name}`)),
    [], 'parameters with defaults are optional')
  t.same(offenders(({ path, name }) => /\{id\}/.test(path) ? [name] : []), [], 'path parameters say what they take')

  // A list is a 200 body with an array property; it pages with page/limit and a pagination object unless listed above.
  const lists = operations.filter(({ op }) => {
    const ref = op.responses['200']?.content?.['application/json']?.schema.$ref
    const body = ref == null ? undefined : schemas[ref.replace('#/components/schemas/', '')]
    return Object.values(body?.properties ?? {}).some(p => p.type === 'array')
  })
  t.ok(lists.length >= 30, `${lists.length} operations answer a list`)
  t.same(lists.filter(({ op }) => UNPAGED.has(op.operationId!))
    .filter(({ op }) => !UNPAGED.get(op.operationId!)!.test(`${op.summary} ${(op as { description?: string }).description ?? ''}`)).map(o => o.name),
  [], 'each unpaged list documents why')
  const paged = lists.filter(({ op }) => !UNPAGED.has(op.operationId!))
  t.same(paged.filter(({ op }) => {
    const params = (op.parameters ?? []).filter(p => p.in === 'query').map(p => p.name)
    return !(params.includes('page') && params.includes('limit'))
  }).map(o => o.name), [], 'paged lists take page and limit')
  t.same(paged.filter(({ op }) => {
    const ref = op.responses['200'].content!['application/json'].schema.$ref!
    return JSON.stringify(schemas[ref.replace('#/components/schemas/', '')].properties?.pagination) !== JSON.stringify({ $ref: '#/components/schemas/Pagination' })
  }).map(o => o.name), [], 'paged lists answer a pagination object')

  const search = doc.paths['/api/search'].get
  t.match(search.description, /recipes\.list/, 'the redirects say where they end')
  t.ok(search.responses['302'].headers.Location, 'and document the Location header')
})
