// GET /api/ai-recipes/usage and /history: the month's count against the plan's limit, the caller's generations paged
// newest first (never another user's), and the generations in the GDPR export and gone with the account.
import t from 'tap'
import { completion, fakeProvider, recipeJson, TEST_MODEL } from '../../../helpers/ai-provider.js'
import { adminBearer, bearer, build, createAdmin, eventually, json, registerUser, type TestUser } from '../../../helper.js'

type App = Awaited<ReturnType<typeof build>>

const generate = async (app: App, user: TestUser, payload: Record<string, unknown>) =>
  await app.inject({ method: 'POST', url: '/api/ai-recipes/generate', headers: bearer(user), payload })
const get = async (app: App, user: TestUser, url: string) => await app.inject({ url, headers: bearer(user) })

/** The first instant of the month after now (UTC). */
function nextMonth (): string {
  const now = new Date()
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString()
}

t.test('usage: this month\'s count, the plan\'s limit (null when unlimited) and when it resets', async t => {
  const provider = await fakeProvider(t)
  const app = await build(t, { env: provider.env() })
  const admin = await createAdmin(app)
  const ann = await registerUser(app)

  const fresh = await get(app, ann, '/api/ai-recipes/usage')
  t.equal(fresh.statusCode, 200)
  t.same(json(fresh), { success: true, period: new Date().toISOString().slice(0, 7), used: 0, limit: 5, resetsAt: nextMonth() })

  t.equal((await generate(app, ann, { prompt: 'soup' })).statusCode, 201)
  provider.script({ status: 500, json: {} })
  t.equal((await generate(app, ann, { prompt: 'stew' })).statusCode, 502)
  t.match(json(await get(app, ann, '/api/ai-recipes/usage')), { used: 1, limit: 5 }, 'a failed generation does not count')
  t.match(json(await get(app, ann, '/api/subscriptions/me')).usage.aiGenerations, { used: 1, limit: 5 }, 'the same count as the subscription')

  await app.inject({ method: 'PATCH', url: `/api/admin/users/${ann.id}`, headers: adminBearer(admin), payload: { planId: 'premium' } })
  t.match(json(await get(app, ann, '/api/ai-recipes/usage')), { used: 1, limit: 100 })
  await app.inject({ method: 'PATCH', url: '/api/admin/plans/premium', headers: adminBearer(admin), payload: { limits: { aiGenerations: null } } })
  t.match(json(await get(app, ann, '/api/ai-recipes/usage')), { used: 1, limit: null }, 'null: unlimited')

  const bob = await registerUser(app)
  t.match(json(await get(app, bob, '/api/ai-recipes/usage')), { used: 0, limit: 5 }, 'counts are per user')
  const anonymous = await app.inject({ url: '/api/ai-recipes/usage' })
  t.equal(anonymous.statusCode, 401)
  t.equal(json(anonymous).success, false)
})

t.test('history: every outcome, newest first, paged; another user\'s never visible', async t => {
  const provider = await fakeProvider(t)
  const app = await build(t, { env: provider.env() })
  const ann = await registerUser(app)
  const bob = await registerUser(app)

  const made = json(await generate(app, ann, { prompt: 'first', servings: 3, type: 'food' }))
  provider.script({ status: 503, json: {} })
  await generate(app, ann, { prompt: 'second' })
  provider.script(completion({ refusal: 'Not a recipe.' }))
  await generate(app, ann, { prompt: 'third' })
  provider.script(completion('nope'), completion(recipeJson({ title: 'Fourth Dish' })))
  const fourth = json(await generate(app, ann, { ingredients: ['spaghetti'], cuisine: 'Italian', dietary: ['vegan'] }))
  await generate(app, bob, { prompt: 'bob private prompt' })

  const page1 = await get(app, ann, '/api/ai-recipes/history?limit=3')
  t.equal(page1.statusCode, 200)
  const body = json(page1)
  t.equal(body.success, true)
  t.same(body.pagination, { page: 1, limit: 3, total: 4, totalPages: 2, hasNext: true, hasPrev: false, totalExact: true })
  t.same(body.generations.map((g: { status: string }) => g.status), ['success', 'refused', 'failed'])
  const [latest, refused, failed] = body.generations
  t.same(Object.keys(latest).sort(), ['attempts', 'createdAt', 'error', 'finishedAt', 'id', 'latencyMs', 'model', 'prompt', 'recipeId', 'request', 'status', 'tokens'])
  t.match(latest, {
    id: fourth.generationId,
    status: 'success',
    request: { ingredients: ['spaghetti'], cuisine: 'Italian', dietary: ['vegan'] },
    model: TEST_MODEL,
    tokens: { prompt: 240, completion: 160, total: 400 },
    attempts: 2,
    recipeId: fourth.recipe.id,
    error: null
  })
  t.match(latest.prompt, /Ingredients to use .*spaghetti/)
  t.ok(Date.parse(latest.createdAt) <= Date.parse(latest.finishedAt))
  t.match(refused, { status: 'refused', error: 'The AI declined this request: Not a recipe.', recipeId: null, attempts: 1 })
  t.match(failed, { status: 'failed', error: 'AI provider error: the provider answered 503', recipeId: null })

  const page2 = json(await get(app, ann, '/api/ai-recipes/history?page=2&limit=3'))
  t.same(page2.pagination, { page: 2, limit: 3, total: 4, totalPages: 2, hasNext: false, hasPrev: true, totalExact: true })
  t.match(page2.generations, [{ id: made.generationId, status: 'success', request: { prompt: 'first', servings: 3, type: 'food' } }])

  const bobs = json(await get(app, bob, '/api/ai-recipes/history')).generations
  t.same(bobs.map((g: { request: { prompt: string } }) => g.request.prompt), ['bob private prompt'], 'Bob sees his own only')
  t.notOk((await get(app, ann, '/api/ai-recipes/history?limit=50')).body.includes('bob private prompt'))

  for (const query of ['limit=51', 'limit=0', 'page=0', 'page=x']) {
    const res = await get(app, ann, `/api/ai-recipes/history?${query}`)
    t.equal(res.statusCode, 400, query)
    t.match(json(res), { success: false, error: 'Validation error' }, query)
  }

  // A deleted recipe leaves the generation in the history, without the recipe.
  await app.inject({ method: 'DELETE', url: `/api/recipes/${made.recipe.id}`, headers: bearer(ann) })
  t.equal(json(await get(app, ann, '/api/ai-recipes/history?page=2&limit=3')).generations[0].recipeId, null)
})

t.test('the GDPR export holds the caller\'s generations; account deletion removes them', async t => {
  const provider = await fakeProvider(t)
  const app = await build(t, { env: provider.env() })
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const made = json(await generate(app, ann, { prompt: 'export me' }))
  await generate(app, bob, { prompt: 'bob secret stew' })

  const res = await get(app, ann, '/api/gdpr/export')
  t.equal(res.statusCode, 200)
  const doc = json(res)
  t.match(doc.aiGenerations, [{
    id: made.generationId,
    status: 'success',
    request: { prompt: 'export me' },
    model: TEST_MODEL,
    recipeId: made.recipe.id,
    attempts: 1,
    totalTokens: 200
  }])
  t.notOk(res.body.includes('bob secret stew'), 'nothing of Bob\'s')
  t.notOk('requestKey' in doc.aiGenerations[0], 'not the idempotency hash')

  const deletion = await app.inject({ method: 'POST', url: '/api/data-deletion', headers: bearer(ann), payload: { deleteType: 'account' } })
  t.equal(deletion.statusCode, 201, deletion.body)
  await eventually(async () => (await app.db`select 1 from users where id = ${ann.id}`).length === 0, 15_000)
  t.equal((await app.db`select count(*)::int as n from ai_generations where user_id = ${ann.id}`)[0].n, 0, 'gone with the account')
  t.equal((await app.db`select count(*)::int as n from ai_generations where user_id = ${bob.id}`)[0].n, 1, 'Bob\'s stay')
})
