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
