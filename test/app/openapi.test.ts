import { readdirSync } from 'node:fs'
import SwaggerParser from '@apidevtools/swagger-parser'
import t from 'tap'
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

  t.ok(doc.components.schemas.ErrorResponse, 'ErrorResponse registered once, by name')
  t.ok(doc.components.schemas.Pagination, 'Pagination registered once, by name')
  t.ok(doc.paths['/readyz']?.get, '/readyz documented')
  t.same(doc.paths['/readyz'].get.tags, ['Operations'])
  t.ok(doc.paths['/readyz'].get.responses['503'], 'readiness failure documented')
  t.ok(doc.paths['/healthz']?.get, '/healthz documented')
  t.notOk(Object.keys(doc.paths).some(p => p.startsWith('/api/docs')), 'the docs routes themselves are hidden')

  // Every documented operation lists its responses and a 500 that references the shared error schema.
  for (const [path, item] of Object.entries<Record<string, { responses: Record<string, unknown> }>>(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      t.ok(op.responses['200'] ?? op.responses['201'] ?? op.responses['204'] ?? op.responses['302'], `${method} ${path} has a success response`)
      t.ok(op.responses['500'], `${method} ${path} documents 500`)
    }
  }
  t.match(JSON.stringify(doc.paths['/readyz'].get.responses['500']), /#\/components\/schemas\/ErrorResponse/)

  // An operation that turns an anonymous caller away documents that 401 (and its Bearer security).
  for (const [path, item] of Object.entries<Record<string, { responses: Record<string, unknown>, security?: unknown[] }>>(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const probe = await app.inject({ method: method.toUpperCase() as 'GET', url: path.replace(/\{[^}]+\}/g, 'placeholder1') })
      if (probe.statusCode !== 401) continue
      t.ok(op.responses['401'], `${method} ${path} documents 401`)
      t.ok(op.security?.length, `${method} ${path} documents its security`)
    }
  }

  // Folder = prefix = tag: every family under routes/api is documented, each operation under its folder's tag.
  const families = readdirSync('routes/api', { withFileTypes: true }).filter(d => d.isDirectory()).map(d => d.name)
  t.ok(families.length >= 15, `${families.length} families`)
  for (const family of families) {
    const paths = Object.keys(doc.paths).filter(p => p === `/api/${family}` || p.startsWith(`/api/${family}/`))
    t.ok(paths.length > 0, `/api/${family} is documented`)
    const tag = family.split('-').map(w => w[0].toUpperCase() + w.slice(1)).join(' ')
    for (const path of paths) {
      for (const [method, op] of Object.entries<{ tags?: string[] }>(doc.paths[path])) t.same(op.tags, [tag], `${method} ${path} tagged ${tag}`)
    }
  }
})

interface Operation {
  operationId?: string
  summary?: string
  parameters?: Array<{ in: string, name: string, required?: boolean, schema?: { default?: unknown } }>
  responses: Record<string, { description: string, content?: Record<string, { schema: { $ref?: string } }> }>
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
  ['recipeImport.preview', /at most 10 \(not paged\)/]
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

  for (const { op, name, path } of operations) {
    t.ok(op.summary, `${name} has a summary`)
    for (const [status, response] of Object.entries(op.responses)) {
      t.notOk(['Default Response', 'Error body', ''].includes(response.description), `${name} ${status} is described: ${response.description}`)
      for (const media of Object.values(response.content ?? {})) t.ok(media.schema.$ref, `${name} ${status} body is a named schema`)
    }
    const requiredDefaults = (op.parameters ?? []).filter(p => p.required === true && p.schema?.default !== undefined).map(p => p.name)
    t.same(requiredDefaults, [], `${name}: parameters with defaults are optional`)
    t.notMatch(path, /\{id\}/, `${name}: path parameters say what they take`)
  }

  // A list is a 200 body with an array property; it pages with page/limit and a pagination object unless listed above.
  for (const { op, name } of operations) {
    const ref = op.responses['200']?.content?.['application/json']?.schema.$ref
    const body = ref == null ? undefined : schemas[ref.replace('#/components/schemas/', '')]
    if (!Object.values(body?.properties ?? {}).some(p => p.type === 'array')) continue
    const unpaged = UNPAGED.get(op.operationId!)
    if (unpaged != null) {
      t.match(`${op.summary} ${(op as { description?: string }).description ?? ''}`, unpaged, `${name} documents why it is not paged`)
      continue
    }
    const params = (op.parameters ?? []).filter(p => p.in === 'query').map(p => p.name)
    t.ok(params.includes('page') && params.includes('limit'), `${name} takes page and limit`)
    t.same(body?.properties?.pagination, { $ref: '#/components/schemas/Pagination' }, `${name} answers a pagination object`)
  }

  const search = doc.paths['/api/search'].get
  t.match(search.description, /recipes\.list/, 'the redirects say where they end')
  t.ok(search.responses['302'].headers.Location, 'and document the Location header')
})
