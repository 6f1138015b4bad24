// Recipe import routes: the gate (sign-in, feature flag, monthly allowance, recipe limit), preview with duplicates,
// creation from a page, captured HTML, a preview, text and an image, the legacy route, refusals of private addresses,
// pages that fail, the import log, and the allowance exact under concurrent imports.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'
import t, { type Test } from 'tap'
import { adminBearer, bearer, build, createAdmin, eventually, json, registerUser } from '../../../helper.js'
import { chromiumMissing } from '../../../helpers/chromium.js'
import { importSite } from '../../../helpers/import-site.js'

const RECIPE_PAGE = (title: string, extra = '') => `<!doctype html><html lang="en"><head><title>${title} | Site</title>
<script type="application/ld+json">${JSON.stringify({
  '@context': 'https://schema.org',
  '@graph': [{ '@type': 'WebSite', name: 'Site' }, {
    '@type': 'Recipe',
    name: title,
    description: 'Crisp &amp; golden.',
    recipeYield: ['4', '4 servings'],
    prepTime: 'PT15M',
    cookTime: 'PT1H',
    image: { '@type': 'ImageObject', url: '/images/dish.jpg' },
    recipeIngredient: ['2 cups flour', '1 tsp salt', '3 eggs, beaten'],
    recipeInstructions: [
      { '@type': 'HowToSection', name: 'Dough', itemListElement: [{ '@type': 'HowToStep', text: 'Mix the flour and salt.' }] },
      { '@type': 'HowToStep', text: 'Add the eggs and knead.' }
    ],
    recipeCuisine: 'Italian',
    keywords: 'bread, easy'
  }]
})}</script>${extra}</head><body><h1>${title}</h1></body></html>`

/** The file's local web site; the apps built with SITE_ALLOWED may import from its origin (and no other on loopback). */
const SITE = await importSite()
const SITE_ALLOWED = { env: SITE.env, share: true }

/** This test's pages on the local web site, and every request it received. */
async function site (t: Test, pages: Record<string, { status?: number, body: string, type?: string }>): Promise<{ url: (path: string) => string, hits: string[] }> {
  const hits: string[] = []
  SITE.use(t, (req, res) => {
    hits.push(req.url ?? '')
    const page = pages[(req.url ?? '').split('?')[0]]
    res.writeHead(page?.status ?? (page == null ? 404 : 200), { 'content-type': page?.type ?? 'text/html; charset=utf-8' })
    res.end(page?.body ?? 'not found')
  })
  return { url: path => `${SITE.origin}${path}`, hits }
}
type App = Awaited<ReturnType<typeof build>>
const post = async (app: App, user: { token: string }, route: string, payload: Record<string, unknown>) =>
  await app.inject({ method: 'POST', url: `/api/recipe-import/${route}`, headers: bearer(user), payload })

t.test('preview reads the page and lists your recipes from the same page; from-url saves a draft and spends one import', async t => {
  const app = await build(t, SITE_ALLOWED)
  const pages = await site(t, { '/bread': { body: RECIPE_PAGE('Country Bread') } })
  const ann = await registerUser(app)

  const preview = await post(app, ann, 'preview', { url: pages.url('/bread?utm_source=x') })
  t.equal(preview.statusCode, 200, preview.body)
  const body = json(preview)
  t.equal(body.success, true)
  t.match(body.preview, {
    title: 'Country Bread',
    description: 'Crisp & golden.',
    prepTime: 15,
    cookTime: 60,
    totalTime: 75,
    servings: 4,
    cuisine: 'Italian',
    imageUrl: pages.url('/images/dish.jpg')
  })
  t.same(body.preview.ingredients.map((i: { text: string }) => i.text), ['2 cups flour', '1 tsp salt', '3 eggs, beaten'])
  t.match(body.preview.instructions, [{ step: 1, text: 'Mix the flour and salt.', section: 'Dough' }, { step: 2, text: 'Add the eggs and knead.' }])
  t.same(body.duplicates, [])
  t.equal(json(await app.inject({ method: 'GET', url: '/api/subscriptions/me', headers: bearer(ann) })).usage.imports.used, 0, 'a preview spends nothing')

  const created = await post(app, ann, 'from-url', { url: pages.url('/bread?fbclid=abc') })
  t.equal(created.statusCode, 201, created.body)
  const recipe = json(created).recipe
  t.match(recipe, { title: 'Country Bread', published: false, servings: 4, totalTime: 75 })
  t.same(recipe.ingredients.map((i: { text: string }) => i.text), ['2 cups flour', '1 tsp salt', '3 eggs, beaten'])
  t.equal(json(await app.inject({ method: 'GET', url: '/api/subscriptions/me', headers: bearer(ann) })).usage.imports.used, 1)

  const again = json(await post(app, ann, 'preview', { url: pages.url('/bread#top') }))
  t.same(again.duplicates.map((d: { id: string }) => d.id), [recipe.id], 'the same page without tracking parameters is a duplicate')
  const bob = await registerUser(app)
  t.same(json(await post(app, bob, 'preview', { url: pages.url('/bread') })).duplicates, [], 'duplicates are only your own recipes')

  const published = await post(app, ann, 'from-url', { url: pages.url('/bread'), saveAsDraft: false })
  t.equal(json(published).recipe.published, true, 'saveAsDraft: false publishes')
})

t.test('captured HTML is read instead of fetching; text and previews become recipes', async t => {
  const app = await build(t, SITE_ALLOWED)
  const ann = await registerUser(app)
  const captured = await post(app, ann, 'from-url', { url: 'http://127.0.0.1:9/never-fetched', html: RECIPE_PAGE('Captured Soup') })
  t.equal(captured.statusCode, 201, captured.body)
  t.equal(json(captured).recipe.title, 'Captured Soup')
  t.equal(json(captured).recipe.sourceUrl, 'http://127.0.0.1:9/never-fetched')

  const text = await post(app, ann, 'from-text', {
    text: 'Lemon Pancakes\n\nIngredients\n- 1 cup flour\n- 2 eggs\n- 1 lemon, zested\n\nInstructions\n1. Whisk everything together.\n2. Fry in a hot pan.'
  })
  t.equal(text.statusCode, 201, text.body)
  t.match(json(text).recipe, { title: 'Lemon Pancakes', published: false })
  t.equal(json(text).recipe.ingredients.length, 3)
  t.equal(json(text).recipe.instructions.length, 2)

  const nothing = await post(app, ann, 'from-text', { text: 'just a sentence about nothing in particular' })
  t.equal(nothing.statusCode, 422)
  t.same(json(nothing), { success: false, error: 'No recipe found', details: [] })

  const preview = json(await post(app, ann, 'preview', { url: 'http://127.0.0.1:9/x', html: RECIPE_PAGE('Edited Stew') })).preview
  const fromPreview = await post(app, ann, 'from-preview', { preview: { ...preview, title: 'My Stew' }, saveAsDraft: false })
  t.equal(fromPreview.statusCode, 201, fromPreview.body)
  t.match(json(fromPreview).recipe, { title: 'My Stew', published: true })
  const invalid = await post(app, ann, 'from-preview', { preview: { ...preview, title: '' } })
  t.equal(invalid.statusCode, 400)
  t.equal(json(invalid).success, false, 'validation errors use the envelope')
})

t.test('the gate: sign-in, the recipe-import flag, the monthly allowance and the recipe limit, in the envelope', async t => {
  const app = await build(t, SITE_ALLOWED)
  const ann = await registerUser(app)
  const admin = await createAdmin(app)
  const html = RECIPE_PAGE('Gate Cake')

  const anonymous = await app.inject({ method: 'POST', url: '/api/recipe-import/from-text', payload: { text: 'x' } })
  t.equal(anonymous.statusCode, 401)
  t.equal(json(anonymous).success, false)

  await app.inject({ method: 'PUT', url: '/api/admin/feature-flags', headers: adminBearer(admin), payload: { key: 'recipe-import', enabled: true, userIds: [], plans: ['premium'] } })
  const off = await post(app, ann, 'preview', { url: 'http://127.0.0.1:9/x', html })
  t.equal(off.statusCode, 403)
  t.same(json(off), { success: false, error: 'Recipe import is not available for your account', details: [] })
  await app.inject({ method: 'PUT', url: '/api/admin/feature-flags', headers: adminBearer(admin), payload: { key: 'recipe-import', enabled: true, plans: null } })
  t.equal((await post(app, ann, 'preview', { url: 'http://127.0.0.1:9/x', html })).statusCode, 200, 'on again for every plan')

  await app.inject({ method: 'PATCH', url: '/api/admin/plans/free', headers: adminBearer(admin), payload: { limits: { imports: 2 } } })
  for (let i = 0; i < 2; i++) t.equal((await post(app, ann, 'from-url', { url: `http://127.0.0.1:9/${i}`, html })).statusCode, 201)
  const spent = await post(app, ann, 'from-url', { url: 'http://127.0.0.1:9/2', html })
  t.equal(spent.statusCode, 403)
  t.equal(json(spent).error, 'Monthly import limit reached for your plan')

  await app.inject({ method: 'PATCH', url: '/api/admin/plans/free', headers: adminBearer(admin), payload: { limits: { imports: 100, recipes: 2 } } })
  const full = await post(app, ann, 'from-text', { text: 'Tea\nIngredients\n- 1 tea bag\nMethod\n1. Steep.' })
  t.equal(full.statusCode, 403)
  t.equal(json(full).error, 'Recipe limit reached for your plan')
})

t.test('concurrent imports never pass the monthly allowance', async t => {
  const app = await build(t, SITE_ALLOWED)
  const admin = await createAdmin(app)
  const ann = await registerUser(app)
  await app.inject({ method: 'PATCH', url: '/api/admin/plans/free', headers: adminBearer(admin), payload: { limits: { imports: 3, recipes: 100 } } })
  const statuses = await Promise.all(Array.from({ length: 8 }, async (_, i) =>
    (await post(app, ann, 'from-url', { url: `http://127.0.0.1:9/c${i}`, html: RECIPE_PAGE(`Race ${i}`) })).statusCode))
  t.equal(statuses.filter(s => s === 201).length, 3)
  t.equal(statuses.filter(s => s === 403).length, 5)
  t.equal((await app.db`select count(*)::int as n from recipes where author_id = ${ann.id}`)[0].n, 3)
  t.equal(json(await app.inject({ method: 'GET', url: '/api/subscriptions/me', headers: bearer(ann) })).usage.imports.used, 3)
})

t.test('the legacy route: userId must be yours; the recipe is always the caller\'s', async t => {
  const app = await build(t, SITE_ALLOWED)
  const pages = await site(t, { '/pie': { body: RECIPE_PAGE('Apple Pie') } })
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const foreign = await post(app, ann, 'import', { url: pages.url('/pie'), userId: bob.id })
  t.equal(foreign.statusCode, 403)
  t.same(json(foreign), { success: false, error: 'userId must be your own user id', details: [] })
  t.equal((await app.db`select count(*)::int as n from recipes where author_id = ${bob.id}`)[0].n, 0)
  const own = await post(app, ann, 'import', { url: pages.url('/pie'), userId: ann.id })
  t.equal(own.statusCode, 201, own.body)
  t.match(json(own).recipe, { title: 'Apple Pie', published: false, author: { id: ann.id } })
  t.equal((await post(app, ann, 'import', { url: pages.url('/pie') })).statusCode, 400, 'userId is required')
})

t.test('private and loopback addresses are refused (without the test setting); the target receives nothing', async t => {
  const app = await build(t)
  const pages = await site(t, { '/secret': { body: RECIPE_PAGE('Secret') } })
  const ann = await registerUser(app)
  const port = new URL(pages.url('/')).port
  for (const [url, reason] of [
    [pages.url('/secret'), `port ${port}`], ['http://localhost:8080/', 'port 8080'], ['http://[::1]/', 'address ::1'],
    ['http://169.254.169.254/latest/meta-data/', 'address 169.254.169.254'], ['http://10.0.0.1/', 'address 10.0.0.1'],
    ['http://user:pass@example.com/', 'credentials in the URL'], ['file:///etc/passwd', 'scheme file:'], ['ftp://example.com/x', 'scheme ftp:'],
    ['http://2130706433/', 'address 127.0.0.1'], ['http://localhost/', 'localhost']
  ]) {
    const res = await post(app, ann, 'preview', { url })
    t.equal(res.statusCode, 400, url)
    t.same(json(res), { success: false, error: 'URL not allowed', details: [reason] }, `${url}: the reason is named`)
  }
  t.same(pages.hits, [], 'the loopback server received no request')
  const [row] = await app.db`select status from import_logs where user_id = ${ann.id} order by created_at limit 1`
  t.equal(row.status, 'refused', 'refusals are logged')
})

t.test('pages that fail: an error status is 502, a page without a recipe is 422; every attempt is logged', async t => {
  const app = await build(t, SITE_ALLOWED)
  const pages = await site(t, {
    '/gone': { status: 410, body: 'gone' },
    '/blog': { body: '<html><head><title>Our holiday</title></head><body><p>We went to the sea.</p></body></html>' },
    '/image': { body: 'GIF89a', type: 'image/gif' }
  })
  const ann = await registerUser(app)
  const gone = await post(app, ann, 'from-url', { url: pages.url('/gone') })
  t.equal(gone.statusCode, 502)
  t.equal(json(gone).error, 'The page could not be fetched')
  t.equal(json(gone).details.length, 1)
  t.equal((await post(app, ann, 'from-url', { url: pages.url('/blog') })).statusCode, 422)
  t.equal((await post(app, ann, 'from-url', { url: pages.url('/image') })).statusCode, 502, 'not a web page')
  t.equal(json(await app.inject({ method: 'GET', url: '/api/subscriptions/me', headers: bearer(ann) })).usage.imports.used, 0, 'failures spend nothing')

  const logs = await eventually(async () => {
    const rows = await app.db`select source, mode, status, url, duration_ms from import_logs where user_id = ${ann.id} order by created_at`
    return rows.length === 3 ? rows : null
  })
  t.same(logs.map(l => l.status), ['failed', 'failed', 'failed'])
  t.ok(logs.every(l => l.source === 'url' && l.mode === 'create' && l.durationMs >= 0))
})

t.test('from-image reads a photographed recipe with OCR; bad images are refused', async t => {
  const app = await build(t, SITE_ALLOWED)
  const ann = await registerUser(app)
  t.equal((await post(app, ann, 'from-image', { image: 'abc' })).statusCode, 400, 'at least 100 characters')
  const notImage = await post(app, ann, 'from-image', { image: Buffer.from('x'.repeat(200)).toString('base64') })
  t.ok([400, 422].includes(notImage.statusCode), `not an image: ${notImage.statusCode}`)
  t.equal(json(notImage).success, false)

  const lines = ['Garlic Toast', '', 'Ingredients', '2 slices bread', '1 clove garlic', '2 tbsp butter', '', 'Method', '1. Toast the bread.', '2. Rub with garlic and butter.']
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="${80 + lines.length * 56}"><rect width="100%" height="100%" fill="white"/>` +
    lines.map((line, i) => `<text x="40" y="${70 + i * 56}" font-family="DejaVu Sans, sans-serif" font-size="38" fill="black">${line}</text>`).join('') + '</svg>'
  const png = await sharp(Buffer.from(svg)).png().toBuffer()
  const res = await post(app, ann, 'from-image', { image: `data:image/png;base64,${png.toString('base64')}` })
  t.equal(res.statusCode, 201, res.body)
  const recipe = json(res).recipe
  t.match(recipe.title, /Garlic Toast/i)
  t.ok(recipe.ingredients.some((i: { text: string }) => /garlic/i.test(i.text)), 'ingredients were read')
  t.ok(recipe.instructions.length >= 1, 'steps were read')
})

t.test('a page whose recipe is built by scripts is rendered by Chromium (its script fetched through the safe fetcher)', { skip: chromiumMissing }, async t => {
  const app = await build(t, SITE_ALLOWED)
  const recipe = { '@context': 'https://schema.org', '@type': 'Recipe', name: 'Scripted Curry', recipeIngredient: ['1 onion', '2 tbsp curry paste'], recipeInstructions: ['Fry the onion.', 'Add the paste.'] }
  const pages = await site(t, {
    '/curry': { body: '<!doctype html><html><head><title>Loading…</title><script src="/app.js"></script></head><body><div id="app"></div></body></html>' },
    '/app.js': {
      type: 'application/javascript',
      body: `const s = document.createElement('script'); s.type = 'application/ld+json'; s.textContent = ${JSON.stringify(JSON.stringify(recipe))}; document.head.appendChild(s)`
    }
  })
  const ann = await registerUser(app)
  const res = await post(app, ann, 'preview', { url: pages.url('/curry') })
  t.equal(res.statusCode, 200, res.body)
  t.match(json(res).preview, { title: 'Scripted Curry' })
  t.equal(json(res).preview.ingredients.length, 2)
  t.ok(pages.hits.includes('/app.js'), 'the browser fetched the page\'s script (through the safe fetcher)')
  t.equal(pages.hits.filter(h => h === '/curry').length, 1, 'the page itself was fetched once, by the safe fetcher')
  const [log] = await eventually(async () => {
    const rows = await app.db`select method from import_logs where user_id = ${ann.id}`
    return rows.length > 0 ? rows : null
  })
  t.equal(log.method, 'browser')
})

t.test('a rendered page reaches only the allowed origin: its script cannot read another loopback port (the API\'s own)', { skip: chromiumMissing }, async t => {
  // Filed: with loopback allowed for tests, a page's script read the API's unsubscribe preview on its own port and the
  // token came back as the preview's title. Here a second loopback server holds the secret, readable by any origin.
  const app = await build(t, SITE_ALLOWED)
  const token = `secret-${Math.random().toString(36).slice(2)}`
  const reached: string[] = []
  const api = createServer((req, res) => {
    reached.push(req.url ?? '')
    res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end(JSON.stringify({ token }))
  })
  await new Promise<void>(resolve => api.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { api.closeAllConnections(); api.close() })
  const secretUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/api/unsubscribe/preview`
  const script = `const recipe = name => {
    const s = document.createElement('script'); s.type = 'application/ld+json'
    s.textContent = JSON.stringify({ '@context': 'https://schema.org', '@type': 'Recipe', name, recipeIngredient: ['1 cup rice'], recipeInstructions: ['Boil.'] })
    document.head.appendChild(s)
  }
  Promise.all([
    fetch(${JSON.stringify(secretUrl)}).then(r => r.json()).then(d => d.token),
    fetch('/redirect').then(r => r.json()).then(d => d.token)
  ].map(p => p.catch(() => 'blocked'))).then(names => recipe(names.join(' ')))`
  const page = `<!doctype html><html><head><title>Loading</title><script>${script}</script></head><body></body></html>`
  SITE.use(t, (req, res) => {
    if (req.url === '/redirect') res.writeHead(302, { location: secretUrl }).end()
    else res.writeHead(200, { 'content-type': 'text/html' }).end(page)
  })
  const ann = await registerUser(app)
  const res = await post(app, ann, 'preview', { url: `${SITE.origin}/leaky` })
  t.equal(res.statusCode, 200, res.body)
  t.equal(json(res).preview.title, 'blocked blocked', 'the page was rendered, and both reads of the other port failed')
  t.notMatch(res.body, token, 'the secret is nowhere in the answer')
  t.same(reached, [], 'the other port received no request, directly or by redirect')
})
