// text-preview and image-preview read pasted text or a photo into a preview, as POST /preview reads a page: the
// same envelope, gate and validation as from-text and from-image, nothing saved and no monthly import spent; the
// preview, edited, is saved through from-preview.
import sharp from 'sharp'
import t from 'tap'
import { adminBearer, bearer, build, createAdmin, json, registerUser, type TestUser } from '../../../helper.js'

type App = Awaited<ReturnType<typeof build>>
const post = async (app: App, user: TestUser, route: string, payload: object) =>
  await app.inject({ method: 'POST', url: `/api/recipe-import/${route}`, headers: bearer(user), payload })
const recipeCount = async (app: App, user: TestUser): Promise<number> =>
  json(await app.inject({ url: '/api/auth/me', headers: bearer(user) })).user._count.recipes
const importsUsed = async (app: App, user: TestUser): Promise<number> =>
  json(await app.inject({ url: '/api/subscriptions/me', headers: bearer(user) })).usage.imports.used

const PANCAKES = 'Lemon Pancakes\n\nIngredients\n- 1 cup flour\n- 2 eggs\n- 1 lemon, zested\n\nInstructions\n1. Whisk everything together.\n2. Fry in a hot pan.'
const LINES = ['Garlic Toast', '', 'Ingredients', '2 slices bread', '1 clove garlic', '2 tbsp butter', '', 'Method', '1. Toast the bread.', '2. Rub with garlic and butter.']
const recipeSvg = () => `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="${80 + LINES.length * 56}"><rect width="100%" height="100%" fill="white"/>` +
  LINES.map((line, i) => `<text x="40" y="${70 + i * 56}" font-family="DejaVu Sans, sans-serif" font-size="38" fill="black">${line}</text>`).join('') + '</svg>'

t.test('text-preview: the recipe in the text, nothing saved or spent; the edited preview is then saved', async t => {
  const app = await build(t)
  const ann = await registerUser(app)

  const res = await post(app, ann, 'text-preview', { text: PANCAKES })
  t.equal(res.statusCode, 200, res.body)
  const body = json(res)
  t.same(Object.keys(body), ['success', 'preview'], 'the preview envelope (no duplicates: there is no source page)')
  t.match(body, { success: true, preview: { title: 'Lemon Pancakes', sourceUrl: null, imageUrl: null } })
  t.same(body.preview.ingredients.map((i: { name: string }) => i.name), ['flour', 'eggs', 'lemon'])
  t.same(body.preview.instructions.map((s: { text: string }) => s.text), ['Whisk everything together.', 'Fry in a hot pan.'])
  t.equal(await recipeCount(app, ann), 0, 'no recipe made')
  t.equal(await importsUsed(app, ann), 0, 'no monthly import spent')
  t.same((await app.db`select source, mode, status from import_logs where user_id = ${ann.id}`).map(row => ({ ...row })),
    [{ source: 'text', mode: 'preview', status: 'success' }], 'logged as a preview')

  const saved = await post(app, ann, 'from-preview', { preview: { ...body.preview, title: 'My pancakes' } })
  t.equal(saved.statusCode, 201, saved.body)
  t.match(json(saved).recipe, { title: 'My pancakes', published: false })
  t.equal(await recipeCount(app, ann), 1)
  t.equal(await importsUsed(app, ann), 1, 'saving spends the import')

  const same = json(await post(app, ann, 'from-text', { text: PANCAKES })).recipe
  t.same({ title: same.title, ingredients: same.ingredients.map((i: { name: string }) => i.name) },
    { title: 'Lemon Pancakes', ingredients: ['flour', 'eggs', 'lemon'] }, 'from-text saves what the preview shows')
})

t.test('text-preview: blank text is 400, text without a recipe 422, in the envelope', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  for (const text of ['   ', '\n\n\t', '']) {
    const res = await post(app, ann, 'text-preview', { text })
    t.equal(res.statusCode, 400, JSON.stringify(text))
    t.match(json(res), { success: false, error: 'Validation error', details: [/^text: /] })
  }
  const missing = await post(app, ann, 'text-preview', {})
  t.equal(missing.statusCode, 400)
  t.match(json(missing), { success: false, error: 'Validation error' })
  const prose = await post(app, ann, 'text-preview', { text: 'just a sentence about nothing in particular' })
  t.equal(prose.statusCode, 422)
  t.same(json(prose), { success: false, error: 'No recipe found', details: [] })
  t.equal(await recipeCount(app, ann), 0)
})

t.test('image-preview: a photographed recipe read by OCR, nothing saved; refused images as in from-image', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const base64 = (data: Buffer | string) => Buffer.from(data).toString('base64')

  t.match(json(await post(app, ann, 'image-preview', {})), { success: false, error: 'Validation error' }, 'no image: 400')
  t.equal((await post(app, ann, 'image-preview', { image: 'abc' })).statusCode, 400, 'at least 100 characters')
  const svg = await post(app, ann, 'image-preview', { image: `data:image/svg+xml;base64,${base64(recipeSvg())}` })
  t.equal(svg.statusCode, 415, 'only the upload formats')
  t.match(json(svg), { success: false, error: 'Unsupported image type' })
  const mismatch = await post(app, ann, 'image-preview', { image: base64(await sharp(Buffer.from(recipeSvg())).png().toBuffer()), mimeType: 'image/jpeg' })
  t.equal(mismatch.statusCode, 400)
  t.match(json(mismatch), { success: false, error: 'Invalid image' })
  const blank = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#ffffff' } }).png().toBuffer()
  const nothing = await post(app, ann, 'image-preview', { image: base64(blank) })
  t.equal(nothing.statusCode, 422, nothing.body)
  t.same(json(nothing), { success: false, error: 'No recipe found', details: [] })

  const png = await sharp(Buffer.from(recipeSvg())).png().toBuffer()
  const res = await post(app, ann, 'image-preview', { image: `data:image/png;base64,${base64(png)}` })
  t.equal(res.statusCode, 200, res.body)
  const body = json(res)
  t.match(body, { success: true, preview: { title: /Garlic Toast/i } })
  t.same(Object.keys(body), ['success', 'preview'])
  t.ok(body.preview.ingredients.some((i: { text: string }) => /garlic/i.test(i.text)), 'ingredients were read')
  t.ok(body.preview.instructions.length >= 1, 'steps were read')
  t.equal(await recipeCount(app, ann), 0, 'no recipe made')
  t.equal(await importsUsed(app, ann), 0, 'no monthly import spent')
})

t.test('the gate: sign-in, the recipe-import flag and the monthly allowance, as for the page preview', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const admin = await createAdmin(app)
  const png = (await sharp(Buffer.from(recipeSvg())).png().toBuffer()).toString('base64')

  for (const [route, payload] of [['text-preview', { text: PANCAKES }], ['image-preview', { image: png }]] as const) {
    const anonymous = await app.inject({ method: 'POST', url: `/api/recipe-import/${route}`, payload })
    t.equal(anonymous.statusCode, 401, `${route}: no token`)
    t.equal(json(anonymous).success, false)
    const badToken = await app.inject({ method: 'POST', url: `/api/recipe-import/${route}`, headers: { authorization: 'Bearer nope' }, payload })
    t.equal(badToken.statusCode, 401, `${route}: an invalid token`)
  }

  await app.inject({ method: 'PUT', url: '/api/admin/feature-flags', headers: adminBearer(admin), payload: { key: 'recipe-import', enabled: true, userIds: [], plans: ['premium'] } })
  for (const [route, payload] of [['text-preview', { text: PANCAKES }], ['image-preview', { image: png }]] as const) {
    const off = await post(app, ann, route, payload)
    t.equal(off.statusCode, 403, `${route}: flag off`)
    t.same(json(off), { success: false, error: 'Recipe import is not available for your account', details: [] })
  }
  await app.inject({ method: 'PUT', url: '/api/admin/feature-flags', headers: adminBearer(admin), payload: { key: 'recipe-import', enabled: true, plans: null } })
  t.equal((await post(app, ann, 'text-preview', { text: PANCAKES })).statusCode, 200, 'on again for every plan')

  await app.inject({ method: 'PATCH', url: '/api/admin/plans/free', headers: adminBearer(admin), payload: { limits: { imports: 1 } } })
  t.equal((await post(app, ann, 'from-text', { text: PANCAKES })).statusCode, 201)
  const spent = await post(app, ann, 'text-preview', { text: 'Tea\nIngredients\n- 1 tea bag\nMethod\n1. Steep.' })
  t.equal(spent.statusCode, 403, 'no import left: a preview is refused too, as the page preview is')
  t.equal(json(spent).error, 'Monthly import limit reached for your plan')
  t.equal(await recipeCount(app, ann), 1, 'only the from-text recipe')
})

t.test('previews count among the imports an hour, with the imports that save (429 beyond)', async t => {
  const app = await build(t, { env: { RATE_LIMIT_IMPORTS_PER_HOUR: '3' } })
  const ann = await registerUser(app)
  t.equal((await post(app, ann, 'text-preview', { text: PANCAKES })).statusCode, 200)
  t.equal((await post(app, ann, 'text-preview', { text: PANCAKES })).statusCode, 200)
  t.equal((await post(app, ann, 'from-text', { text: PANCAKES })).statusCode, 201)
  const limited = await post(app, ann, 'text-preview', { text: PANCAKES })
  t.equal(limited.statusCode, 429, limited.body)
  t.equal(json(limited).success, false, 'in the envelope')
  t.equal((await post(app, ann, 'image-preview', { image: 'x'.repeat(200) })).statusCode, 429, 'the photo preview shares the count')
  const bob = await registerUser(app)
  t.equal((await post(app, bob, 'text-preview', { text: PANCAKES })).statusCode, 200, 'per user')
})
