import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { Type } from 'typebox'
import { build, json } from '../helper.js'

async function routes (app: FastifyInstance): Promise<void> {
  const Body = Type.Object({
    title: Type.String(),
    password: Type.Optional(Type.String()),
    html: Type.Optional(Type.String()),
    tags: Type.Optional(Type.Array(Type.String())),
    notes: Type.Optional(Type.Object({ text: Type.String() })),
    meta: Type.Optional(Type.Record(Type.String(), Type.Unknown()))
  })
  app.post('/test/store', { schema: { body: Body } }, async request => request.body)
  app.post('/test/raw', { config: { sanitizeSkip: ['description'] }, schema: { body: Type.Object({ description: Type.String() }) } }, async request => request.body)
}

t.test('bodies pass through the sanitizer', async t => {
  const app = await build(t, { extend: routes })

  t.test('plain text comes back byte for byte', async t => {
    const payload = {
      title: 'salt & pepper, a < b, 5 > 3 — Avoid javascript: the bad parts 🍋',
      tags: ['crème brûlée', 'a<b', 'R&D'],
      notes: { text: 'Tom &amp; Jerry <3' },
      meta: { deep: ['"quoted" \'single\' `back`'] }
    }
    const res = await app.inject({ method: 'POST', url: '/test/store', payload })
    t.equal(res.statusCode, 200)
    t.same(json(res), payload)
  })

  t.test('XSS is removed at every depth', async t => {
    const res = await app.inject({
      method: 'POST',
      url: '/test/store',
      payload: {
        title: 'Cake<script>alert(1)</script>',
        tags: ['<img src=x onerror=alert(1)>'],
        notes: { text: '<a href="javascript:alert(1)">x</a>' },
        meta: { link: 'javascript:alert(document.cookie)' }
      }
    })
    const body = json(res)
    t.equal(body.title, 'Cake')
    t.same(body.tags, ['<img src=x>'])
    t.equal(body.notes.text, '<a>x</a>')
    t.equal(body.meta.link, 'alert(document.cookie)')
  })

  t.test('secrets and markup fields are left alone', async t => {
    const password = 'Pa<script>ss1</script>javascript:'
    const html = '<html><script type="application/ld+json">{"@type":"Recipe"}</script></html>'
    const body = json(await app.inject({ method: 'POST', url: '/test/store', payload: { title: 't', password, html } }))
    t.equal(body.password, password)
    t.equal(body.html, html)
    const raw = json(await app.inject({ method: 'POST', url: '/test/raw', payload: { description: '<script>x</script>' } }))
    t.equal(raw.description, '<script>x</script>', 'a route can keep a markup field verbatim')
  })
})
