// Repeated and concurrent identical imports make one recipe and spend one import; Chromium killed in the middle of a
// render ends that import with an envelope, leaves no process behind, and the next import renders again.
import { execFileSync } from 'node:child_process'
import type { ServerResponse } from 'node:http'
import t from 'tap'
import { bearer, build, eventually, json, registerUser } from '../../../helper.js'
import { chromiumMissing } from '../../../helpers/chromium.js'
import { importSite } from '../../../helpers/import-site.js'

/** The file's local web site; the apps built with SITE_ALLOWED may import from its origin (and no other on loopback). */
const SITE = await importSite()
const SITE_ALLOWED = { env: SITE.env, share: true }
type App = Awaited<ReturnType<typeof build>>
const post = async (app: App, user: { token: string }, route: string, payload: Record<string, unknown>) =>
  await app.inject({ method: 'POST', url: `/api/recipe-import/${route}`, headers: bearer(user), payload })
const importsUsed = async (app: App, user: { token: string }) =>
  json(await app.inject({ method: 'GET', url: '/api/subscriptions/me', headers: bearer(user) })).usage.imports.used as number
const recipesOf = async (app: App, userId: string) =>
  (await app.db<Array<{ n: number }>>`select count(*)::int as n from recipes where author_id = ${userId}`)[0].n

const PAGE = (title: string) => `<!doctype html><html><head><script type="application/ld+json">${JSON.stringify({
  '@context': 'https://schema.org', '@type': 'Recipe', name: title, recipeIngredient: ['1 cup rice', '2 cups water'], recipeInstructions: ['Boil.', 'Simmer.']
})}</script></head><body></body></html>`
const TEXT = 'Plain Rice\n\nIngredients\n- 1 cup rice\n- 2 cups water\n\nMethod\n1. Boil the water.\n2. Add the rice and simmer.'

t.test('the same page again answers 200 with the first recipe and spends nothing; tracking parameters do not matter', async t => {
  const app = await build(t, SITE_ALLOWED)
  const ann = await registerUser(app)
  SITE.use(t, (_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE('Rice')) })
  const url = `${SITE.origin}/rice`
  const first = await post(app, ann, 'from-url', { url, html: PAGE('Rice') })
  t.equal(first.statusCode, 201, first.body)
  const again = await post(app, ann, 'from-url', { url: `${url}?utm_source=news#top`, html: PAGE('Rice') })
  t.equal(again.statusCode, 200, again.body)
  t.equal(json(again).recipe.id, json(first).recipe.id)
  t.equal(json(again).success, true)
  const legacy = await post(app, ann, 'import', { url: `${url}?fbclid=1`, userId: ann.id })
  t.equal(legacy.statusCode, 200, 'the legacy route, fetching the page, finds the same recipe')
  t.equal(json(legacy).recipe.id, json(first).recipe.id)
  t.equal(await recipesOf(app, ann.id), 1)
  t.equal(await importsUsed(app, ann), 1)

  const published = await post(app, ann, 'from-url', { url, html: PAGE('Rice'), saveAsDraft: false })
  t.equal(published.statusCode, 201, 'asking for a published copy is a different request')
  t.equal(json(published).recipe.published, true)

  const bob = await registerUser(app)
  t.equal((await post(app, bob, 'from-url', { url, html: PAGE('Rice') })).statusCode, 201, 'another user gets their own recipe')

  await app.inject({ method: 'DELETE', url: `/api/recipes/${json(first).recipe.id as string}`, headers: bearer(ann) })
  const afterDelete = await post(app, ann, 'from-url', { url, html: PAGE('Rice') })
  t.equal(afterDelete.statusCode, 201, 'once its recipe is deleted the page imports anew')
  t.not(json(afterDelete).recipe.id, json(first).recipe.id)

  const logs = await eventually(async () => {
    const rows = await app.db<Array<{ method: string }>>`select method from import_logs where user_id = ${ann.id} and status = 'success' order by created_at`
    return rows.length === 5 ? rows : null
  })
  t.same(logs.map(l => l.method), ['captured', 'repeat', 'repeat', 'captured', 'captured'], 'repeats are logged as such')
})

t.test('after the repeat window the same page imports again', async t => {
  const app = await build(t, SITE_ALLOWED)
  const ann = await registerUser(app)
  const url = 'http://127.0.0.1:9/old'
  const first = json(await post(app, ann, 'from-url', { url, html: PAGE('Old') })).recipe
  await app.db`update recipe_creation_keys set created_at = now() - interval '11 minutes' where recipe_id = ${first.id as string}`
  const later = await post(app, ann, 'from-url', { url, html: PAGE('Old') })
  t.equal(later.statusCode, 201)
  t.not(json(later).recipe.id, first.id)
  t.equal(await recipesOf(app, ann.id), 2)
})

t.test('concurrent identical imports of a page, a text and a preview each make one recipe', async t => {
  const app = await build(t, SITE_ALLOWED)
  const ann = await registerUser(app)
  const page = await Promise.all(Array.from({ length: 6 }, async () =>
    await post(app, ann, 'from-url', { url: 'http://127.0.0.1:9/race', html: PAGE('Race') })))
  t.same(page.map(r => r.statusCode).sort(), [200, 200, 200, 200, 200, 201], page.map(r => r.body).join('\n'))
  t.equal(new Set(page.map(r => json(r).recipe.id)).size, 1, 'every answer is the one recipe')

  const text = await Promise.all(Array.from({ length: 4 }, async () => await post(app, ann, 'from-text', { text: TEXT })))
  t.same(text.map(r => r.statusCode).sort(), [200, 200, 200, 201])
  t.equal((await post(app, ann, 'from-text', { text: `${TEXT}\n3. Rest for five minutes.` })).statusCode, 201, 'a different text is a new recipe')

  const preview = json(await post(app, ann, 'preview', { url: 'http://127.0.0.1:9/p', html: PAGE('Previewed') })).preview
  const fromPreview = await Promise.all(Array.from({ length: 4 }, async () => await post(app, ann, 'from-preview', { preview })))
  t.same(fromPreview.map(r => r.statusCode).sort(), [200, 200, 200, 201])

  t.equal(await recipesOf(app, ann.id), 4)
  t.equal(await importsUsed(app, ann), 4, 'one import spent per recipe made')
})

/** Chromium processes started by this test process (Playwright's children and theirs). */
function chromiumPids (): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,comm='], { encoding: 'utf8' })
  const rows = out.trim().split('\n').map(line => line.trim().split(/\s+/)).map(([pid, ppid, comm]) => ({ pid: Number(pid), ppid: Number(ppid), comm }))
  const ours = new Set([process.pid])
  let grew = true
  while (grew) {
    grew = false
    for (const row of rows) if (ours.has(row.ppid) && !ours.has(row.pid)) { ours.add(row.pid); grew = true }
  }
  return rows.filter(row => ours.has(row.pid) && /chrom/i.test(row.comm)).map(row => row.pid)
}

t.test('Chromium killed mid-import: an error envelope, no process left behind, the next import renders', { skip: chromiumMissing }, async t => {
  const app = await build(t, SITE_ALLOWED)
  const ann = await registerUser(app)
  const recipe = { '@context': 'https://schema.org', '@type': 'Recipe', name: 'Rendered Dal', recipeIngredient: ['1 cup lentils'], recipeInstructions: ['Cook the lentils.'] }
  const script = `const s = document.createElement('script'); s.type = 'application/ld+json'; s.textContent = ${JSON.stringify(JSON.stringify(recipe))}; document.head.appendChild(s)`
  const held: ServerResponse[] = []
  let scriptRequested: () => void = () => {}
  const requested = new Promise<void>(resolve => { scriptRequested = resolve })
  SITE.use(t, (req, res) => {
    if (req.url === '/slow.js') { held.push(res); scriptRequested(); return }
    if (req.url === '/fast.js') { res.writeHead(200, { 'content-type': 'application/javascript' }).end(script); return }
    const src = req.url === '/dal' ? '/fast.js' : '/slow.js'
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head><title>Loading</title><script src="${src}"></script></head><body></body></html>`)
  })
  t.teardown(() => { for (const res of held) res.destroy() })
  const base = SITE.origin

  const pending = post(app, ann, 'from-url', { url: `${base}/stuck` })
  await requested
  const pids = chromiumPids()
  t.ok(pids.length > 0, 'Chromium is running the render')
  for (const pid of pids) { try { process.kill(pid, 'SIGKILL') } catch {} }
  const res = await pending
  t.equal(res.statusCode, 422, res.body)
  t.same(json(res), { success: false, error: 'No recipe found', details: [] }, 'the fetched page has no recipe: the envelope, no stack')
  t.equal(await recipesOf(app, ann.id), 0)
  t.equal(await importsUsed(app, ann), 0)
  await eventually(async () => chromiumPids().every(pid => !pids.includes(pid)) || null)
  t.pass('the killed processes are gone (reaped, not zombies)')

  const next = await post(app, ann, 'from-url', { url: `${base}/dal` })
  t.equal(next.statusCode, 201, next.body)
  t.equal(json(next).recipe.title, 'Rendered Dal', 'a new Chromium rendered the next page')
  const [log] = await eventually(async () => {
    const rows = await app.db<Array<{ method: string }>>`select method from import_logs where user_id = ${ann.id} and status = 'success'`
    return rows.length > 0 ? rows : null
  })
  t.equal(log.method, 'browser')
})
