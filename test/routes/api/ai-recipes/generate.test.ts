// POST /api/ai-recipes/generate against a fake OpenAI-compatible provider (a real HTTP server): the request the
// provider receives, repair and grounding retries, provider failures (5xx, 429, timeout, client gone), the gate (flag,
// provider, limits, rate), the allowance exact under concurrency and given back on failure, idempotency (double
// submits, Idempotency-Key, identical requests in flight), the draft's privacy and the request bounds.
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import {
  completion, fakeProvider, lastUserMessage, recipeJson, recipeWith, TEST_API_KEY, TEST_MODEL, type FakeProvider
} from '../../../helpers/ai-provider.js'
import { adminBearer, bearer, build, createAdmin, eventually, json, registerUser, type TestAdmin, type TestUser } from '../../../helper.js'

type App = Awaited<ReturnType<typeof build>>

const URL = '/api/ai-recipes/generate'
const generate = async (app: App, user: TestUser, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  await app.inject({ method: 'POST', url: URL, headers: { ...bearer(user), ...headers }, payload })
const usage = async (app: App, user: TestUser) => json(await app.inject({ url: '/api/ai-recipes/usage', headers: bearer(user) }))
const history = async (app: App, user: TestUser) => json(await app.inject({ url: '/api/ai-recipes/history?limit=50', headers: bearer(user) })).generations
const recipeCount = async (app: App, user: TestUser) => (await app.db`select count(*)::int as n from recipes where author_id = ${user.id}`)[0].n

let planCount = 0
/** Puts `user` on a plan of their own with these limits (plans are shared by the whole test file). */
async function onPlan (app: App, admin: TestAdmin, user: TestUser, limits: { recipes?: number | null, aiGenerations?: number | null }) {
  const id = `ai-test-${++planCount}`
  const created = await app.inject({
    method: 'POST',
    url: '/api/admin/plans',
    headers: adminBearer(admin),
    payload: { id, name: id, priceMonthly: 0, limits: { recipes: null, aiGenerations: null, imports: null, ...limits } }
  })
  if (created.statusCode !== 201) throw new Error(`plan: ${created.statusCode} ${created.body}`)
  const moved = await app.inject({ method: 'PATCH', url: `/api/admin/users/${user.id}`, headers: adminBearer(admin), payload: { planId: id } })
  if (moved.statusCode !== 200) throw new Error(`plan: ${moved.statusCode} ${moved.body}`)
}

async function setup (t: Test, env: (provider: FakeProvider) => Record<string, string> = p => p.env()) {
  const provider = await fakeProvider(t)
  const app = await build(t, { env: env(provider) })
  const ann = await registerUser(app)
  return { app, provider, ann }
}

t.test('a generated recipe: the provider gets the model, key, JSON mode and the request; the draft is the caller\'s alone', async t => {
  const { app, provider, ann } = await setup(t)
  provider.script(completion(recipeJson()))
  const res = await generate(app, ann, {
    prompt: 'A quick pasta for two',
    ingredients: ['Spaghetti', 'cherry tomatoes', ' basil '],
    cuisine: 'Italian',
    type: 'food',
    dietary: 'vegetarian, nut-free',
    servings: 2
  })
  t.equal(res.statusCode, 201, res.body)
  const body = json(res)
  t.equal(body.success, true)
  t.type(body.generationId, 'string')
  const recipe = body.recipe
  t.match(recipe, {
    title: 'Tomato Basil Pasta',
    description: 'A quick weeknight pasta.',
    type: 'food',
    difficulty: 'easy',
    published: false,
    visibility: 'public',
    cuisine: 'Italian',
    servings: 2,
    prepTime: 10,
    cookTime: 15,
    totalTime: 25,
    sourceUrl: null,
    imageUrl: null,
    author: { id: ann.id }
  })
  t.same(recipe.tags.map((tag: { name: string }) => tag.name).sort(), ['ai-generated', 'pasta', 'quick'])
  t.match(recipe.ingredients[1], { name: 'cherry tomatoes', quantity: 250, unit: 'g', note: 'halved' })
  t.match(recipe.ingredients[4], { text: '2 cloves garlic, sliced', name: 'garlic', quantity: 2, note: 'sliced' }, 'a text line goes through the ingredient parser')
  t.same(recipe.instructions.map((s: { step: number, text: string }) => [s.step, s.text]), [
    [1, 'Boil the spaghetti in salted water.'], [2, 'Fry the garlic in the oil, add the tomatoes.'], [3, 'Toss with the pasta and basil.']
  ])

  t.equal(provider.requests.length, 1)
  const [sent] = provider.requests
  t.equal(sent.headers.authorization, `Bearer ${TEST_API_KEY}`)
  t.equal(sent.body.model, TEST_MODEL)
  t.same(sent.body.response_format, { type: 'json_object' })
  t.type(sent.body.temperature, 'number')
  t.same(sent.body.messages.map(m => m.role), ['system', 'user'])
  t.match(sent.body.messages[0].content, /"ingredients"/, 'the system prompt spells out the JSON shape')
  const prompt = sent.body.messages[1].content
  for (const part of ['A quick pasta for two', 'Spaghetti, cherry tomatoes, basil', 'Cuisine: Italian', 'vegetarian, nut-free', 'Servings: 2']) {
    t.match(prompt, part, `the prompt has ${part}`)
  }

  const bob = await registerUser(app)
  t.equal((await app.inject({ url: `/api/recipes/${recipe.id}`, headers: bearer(bob) })).statusCode, 404, 'a draft: others do not see it')
  t.equal((await app.inject({ url: `/api/recipes/${recipe.id}` })).statusCode, 404, 'nor do anonymous visitors')
  t.equal((await app.inject({ url: `/api/recipes/${recipe.id}`, headers: bearer(ann) })).statusCode, 200, 'the author does')

  t.match(await usage(app, ann), { used: 1, limit: 5 })
  const [logged] = await history(app, ann)
  t.match(logged, {
    id: body.generationId,
    status: 'success',
    model: TEST_MODEL,
    attempts: 1,
    recipeId: recipe.id,
    error: null,
    tokens: { prompt: 120, completion: 80, total: 200 },
    request: { prompt: 'A quick pasta for two', ingredients: ['Spaghetti', 'cherry tomatoes', 'basil'], dietary: ['vegetarian', 'nut-free'], servings: 2 }
  })
  t.ok(logged.latencyMs >= 0 && logged.finishedAt != null)
  t.equal(logged.prompt, prompt, 'the log keeps the instructions sent')

  const anonymous = await app.inject({ method: 'POST', url: URL, payload: { prompt: 'x' } })
  t.equal(anonymous.statusCode, 401)
  t.equal(json(anonymous).success, false, 'the envelope, even for sign-in')
})

t.test('replies in code fences or with prose around them are read; model output is sanitized', async t => {
  const { app, provider, ann } = await setup(t)
  provider.script(completion('Sure! Here it is:\n```json\n' + JSON.stringify(recipeJson({
    title: 'Soup<script>alert(1)</script>',
    prepTime: 'PT20M',
    cookTime: '1 hour 5 minutes',
    servings: '4 people',
    ingredients: [{ name: 'leeks', quantity: '1 1/2', unit: null, note: null }, 'salt\u0000'],
    tags: []
  })) + '\n```\nEnjoy!'))
  const res = await generate(app, ann, { prompt: 'leek soup' })
  t.equal(res.statusCode, 201, res.body)
  t.match(json(res).recipe, { title: 'Soup', prepTime: 20, cookTime: 65, servings: 4 })
  t.match(json(res).recipe.ingredients, [{ name: 'leeks', quantity: 1.5 }, { name: 'salt' }])
  t.same(json(res).recipe.tags.map((tag: { name: string }) => tag.name), ['ai-generated'])

  provider.script(completion('I think you will like this. {"title": "Plain Rice", "ingredients": ["1 cup rice", "2 cups water"], "instructions": ["Simmer 15 minutes."]} Bye.'))
  const prose = await generate(app, ann, { prompt: 'rice' })
  t.equal(prose.statusCode, 201, prose.body)
  t.match(json(prose).recipe, { title: 'Plain Rice', difficulty: 'medium', type: 'food' })
})

t.test('an invalid reply is repaired once: the problems go back to the model', async t => {
  const { app, provider, ann } = await setup(t)
  provider.script(completion('not json at all'), completion(recipeJson({ ingredients: [] })))
  const res = await generate(app, ann, { prompt: 'pasta' })
  t.equal(res.statusCode, 502, 'not JSON, then invalid: one repair only')
  t.same(json(res).error, 'AI provider returned an unusable recipe')
  t.equal(json(res).success, false)
  t.ok(json(res).details.some((d: string) => /attempt 1: reply: is not a JSON object/.test(d)), JSON.stringify(json(res).details))
  t.ok(json(res).details.some((d: string) => /attempt 2: .*ingredients/.test(d)), JSON.stringify(json(res).details))
  t.equal(provider.requests.length, 2)
  const repair = provider.requests[1].body.messages
  t.same(repair.map(m => m.role), ['system', 'user', 'assistant', 'user'])
  t.equal(repair[2].content, 'not json at all', 'the reply is sent back')
  t.match(repair[3].content, /is not a JSON object/, 'with what was wrong')
  t.equal((await usage(app, ann)).used, 0, 'the allowance is given back')
  t.equal(await recipeCount(app, ann), 0)
  t.match((await history(app, ann))[0], { status: 'failed', attempts: 2, recipeId: null, error: /^AI provider returned an unusable recipe: attempt 1/ })

  provider.script(completion('{"title": "Broken", "ingredients": "flour"'), completion(recipeJson()))
  const repaired = await generate(app, ann, { prompt: 'pasta again' })
  t.equal(repaired.statusCode, 201, repaired.body)
  t.match((await history(app, ann))[0], { status: 'success', attempts: 2, tokens: { total: 400 } })
  t.equal((await usage(app, ann)).used, 1)
})

t.test('grounding: a recipe that ignores the requested ingredients is asked for again, then refused', async t => {
  const { app, provider, ann } = await setup(t)
  const requested = ['chicken thighs', 'lemons', 'potatoes', 'rosemary', 'garlic']
  provider.script(recipeWith(['beef', 'onion', 'garlic']), recipeWith(['chicken thigh', 'lemon', 'new potatoes', 'salt']))
  const res = await generate(app, ann, { ingredients: requested })
  t.equal(res.statusCode, 201, res.body)
  t.equal(provider.requests.length, 2)
  t.match(lastUserMessage(provider.requests[1]), /at least 3 of the 5 requested ingredients.*left out: chicken thighs, lemons, potatoes, rosemary/s)
  t.match((await history(app, ann))[0], { status: 'success', attempts: 2 })

  provider.script(recipeWith(['tofu']), recipeWith(['tofu', 'lemon']))
  const refused = await generate(app, ann, { ingredients: requested, prompt: 'something else' })
  t.equal(refused.statusCode, 502)
  t.equal(json(refused).error, 'AI provider returned an unusable recipe')
  t.match(json(refused).details, [/attempt 1: ingredients: uses 0 of the 5 requested/, /attempt 2: ingredients: uses 1 of the 5 requested .*missing: chicken thighs, potatoes, rosemary, garlic/])
  t.equal((await usage(app, ann)).used, 1, 'only the grounded one counts')
  t.equal(await recipeCount(app, ann), 1)

  provider.script(recipeWith(['eggplant', 'tomato']))
  t.equal((await generate(app, ann, { ingredients: ['tomatoes'] })).statusCode, 201, 'plurals fold: tomatoes matches tomato')
  provider.script(recipeWith(['eggplant']), recipeWith(['eggplant']))
  t.equal((await generate(app, ann, { ingredients: ['egg'] })).statusCode, 502, 'whole words only: egg is not eggplant')
})

t.test('the model declining is a 422 refusal; nothing is spent', async t => {
  const { app, provider, ann } = await setup(t)
  provider.script(completion({ refusal: 'This is not a food or drink request.' }))
  const res = await generate(app, ann, { prompt: 'write my homework' })
  t.equal(res.statusCode, 422)
  t.same(json(res), { success: false, error: 'The AI declined this request', details: ['This is not a food or drink request.'] })
  t.equal(provider.requests.length, 1, 'a refusal is not retried')
  t.equal((await usage(app, ann)).used, 0)
  t.match((await history(app, ann))[0], { status: 'refused', error: /declined/ })
})

t.test('provider failures are not retried: 500 is 502, 429 is 503 with Retry-After, a broken body is 502; all given back', async t => {
  const { app, provider, ann } = await setup(t)
  provider.script({ status: 500, json: { error: { message: 'internal' } } })
  const failed = await generate(app, ann, { prompt: 'a' })
  t.equal(failed.statusCode, 502)
  t.same(json(failed), { success: false, error: 'AI provider error', details: ['the provider answered 500'] })

  provider.script({ status: 429, json: { error: 'slow down' }, headers: { 'retry-after': '7' } })
  const limited = await generate(app, ann, { prompt: 'b' })
  t.equal(limited.statusCode, 503)
  t.equal(limited.headers['retry-after'], '7')
  t.same(json(limited), { success: false, error: 'AI provider is busy, please retry', details: [] })

  provider.script({ text: '<html>gateway</html>' })
  const broken = await generate(app, ann, { prompt: 'c' })
  t.equal(broken.statusCode, 502)
  t.same(json(broken).details, ['the provider\'s answer is not JSON'])

  provider.script({ status: 401, json: { error: 'bad key' } })
  t.equal((await generate(app, ann, { prompt: 'd' })).statusCode, 502)

  t.equal(provider.requests.length, 4, 'one provider call each')
  t.equal((await usage(app, ann)).used, 0, 'every reservation given back')
  t.same((await history(app, ann)).map((g: { status: string }) => g.status), ['failed', 'failed', 'failed', 'failed'])
  t.equal(await recipeCount(app, ann), 0)
})

t.test('a provider that never answers: 504 after the timeout, quickly, allowance given back', async t => {
  const { app, provider, ann } = await setup(t, p => ({ ...p.env(), AI_TIMEOUT_MS: '300' }))
  provider.script({ hang: true })
  const started = Date.now()
  const res = await generate(app, ann, { prompt: 'slow food' })
  t.equal(res.statusCode, 504)
  t.same(json(res), { success: false, error: 'AI provider timed out', details: ['no complete answer within 1 s'] })
  t.ok(Date.now() - started < 3000, `answered in ${Date.now() - started} ms`)
  t.equal((await usage(app, ann)).used, 0)
  t.match((await history(app, ann))[0], { status: 'failed', error: /timed out/, attempts: 1 })
})

t.test('a client that goes away aborts the provider call; the generation is logged failed and given back', async t => {
  const { app, provider, ann } = await setup(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  provider.script({ hang: true })
  const req = httpRequest({ host: '127.0.0.1', port, path: URL, method: 'POST', headers: { ...bearer(ann), 'content-type': 'application/json' } })
  req.on('error', () => {})
  req.end(JSON.stringify({ prompt: 'leaving soon' }))
  await eventually(async () => provider.requests.length === 1)
  req.destroy()
  const [row] = await eventually(async () => {
    const rows = await history(app, ann)
    return rows[0]?.status === 'failed' && rows
  })
  t.match(row, { status: 'failed', error: 'Request abandoned by the client' })
  t.equal((await usage(app, ann)).used, 0)
})

t.test('no provider configured: 503 before anything is spent (logged as refused)', async t => {
  const app = await build(t, { env: { AI_BASE_URL: undefined } })
  const ann = await registerUser(app)
  const res = await generate(app, ann, { prompt: 'anything' })
  t.equal(res.statusCode, 503)
  t.same(json(res), { success: false, error: 'AI provider not configured', details: [] })
  t.equal((await usage(app, ann)).used, 0)
  t.match(await history(app, ann), [{ status: 'refused', error: 'AI provider not configured', attempts: 0 }])
})

t.test('the gate: the ai-recipes flag, the monthly allowance, the recipe limit, the hourly rate', async t => {
  const { app, provider, ann } = await setup(t)
  const admin = await createAdmin(app)
  const flag = async (payload: Record<string, unknown>) =>
    await app.inject({ method: 'PUT', url: '/api/admin/feature-flags', headers: adminBearer(admin), payload: { key: 'ai-recipes', ...payload } })

  t.teardown(async () => { await flag({ enabled: true, plans: null, userIds: [] }) })
  await flag({ enabled: true, plans: ['premium'], userIds: [] })
  const off = await generate(app, ann, { prompt: 'cake' })
  t.equal(off.statusCode, 403)
  t.same(json(off), { success: false, error: 'AI recipes are not available for your account', details: [] })
  await flag({ enabled: false })
  t.equal((await generate(app, ann, { prompt: 'cake' })).statusCode, 403, 'off for everyone')
  await flag({ enabled: true, plans: null })
  t.equal(provider.requests.length, 0, 'the provider was never called')
  t.match((await history(app, ann))[0], { status: 'refused', error: 'AI recipes are not available for your account' })

  await onPlan(app, admin, ann, { aiGenerations: 1 })
  t.equal((await generate(app, ann, { prompt: 'first' })).statusCode, 201)
  const spent = await generate(app, ann, { prompt: 'second' })
  t.equal(spent.statusCode, 403)
  t.same(json(spent), { success: false, error: 'Monthly AI generation limit reached for your plan', details: [] })
  t.equal(provider.requests.length, 1, 'past the allowance the provider is not called')

  const bob = await registerUser(app)
  await onPlan(app, admin, bob, { recipes: 1 })
  await app.inject({ method: 'POST', url: '/api/recipes', headers: bearer(bob), payload: { title: 'Mine', ingredients: ['1 egg'] } })
  const full = await generate(app, bob, { prompt: 'more' })
  t.equal(full.statusCode, 403)
  t.equal(json(full).error, 'Recipe limit reached for your plan')
  t.equal((await usage(app, bob)).used, 0, 'nothing reserved')
  t.equal(provider.requests.length, 1)

  // Refusals are cheap to make, and the hourly rate counts them all the same.
  const cid = await registerUser(app)
  await flag({ enabled: true, plans: ['premium'], userIds: [] })
  const statuses: number[] = []
  for (let i = 0; i < 31; i++) statuses.push((await generate(app, cid, { prompt: `r${i}` })).statusCode)
  t.same(statuses.slice(0, 30), Array(30).fill(403))
  t.equal(statuses[30], 429, 'the 31st request in an hour')
  t.equal((await history(app, cid)).length, 30, 'a rate-limited request is not logged')
})

t.test('concurrent requests at the limit: exactly the allowance passes, the provider is called only for those', async t => {
  const { app, provider, ann } = await setup(t)
  const admin = await createAdmin(app)
  await onPlan(app, admin, ann, { aiGenerations: 2 })
  provider.fallback = { ...completion(recipeJson()), delayMs: 150 }
  const responses = await Promise.all(Array.from({ length: 5 }, async (_, i) => await generate(app, ann, { prompt: `dish number ${i}` })))
  const statuses = responses.map(r => r.statusCode).sort()
  t.same(statuses, [201, 201, 403, 403, 403], JSON.stringify(responses.map(r => r.body)))
  t.ok(responses.filter(r => r.statusCode === 403).every(r => json(r).error === 'Monthly AI generation limit reached for your plan'))
  t.equal(provider.requests.length, 2)
  t.equal((await usage(app, ann)).used, 2)
  t.equal(await recipeCount(app, ann), 2)
  const logged = await history(app, ann)
  t.same(logged.map((g: { status: string }) => g.status).sort(), ['refused', 'refused', 'refused', 'success', 'success'])
})

t.test('identical requests at once: one generation, the others 409 (or 200 with it); one recipe, spent once', async t => {
  const { app, provider, ann } = await setup(t)
  provider.fallback = { ...completion(recipeJson()), delayMs: 300 }
  const payload = { prompt: 'Double clicked pasta', ingredients: ['spaghetti'] }
  const responses = await Promise.all(Array.from({ length: 5 }, async () => await generate(app, ann, payload)))
  const created = responses.filter(r => r.statusCode === 201)
  t.equal(created.length, 1, JSON.stringify(responses.map(r => [r.statusCode, r.body.slice(0, 80)])))
  for (const res of responses.filter(r => r.statusCode !== 201)) {
    if (res.statusCode === 409) t.same(json(res), { success: false, error: 'An identical generation is in progress', details: [] })
    else t.same([res.statusCode, json(res).generationId], [200, json(created[0]).generationId])
  }
  t.equal(provider.requests.length, 1)
  t.equal(await recipeCount(app, ann), 1)
  t.equal((await usage(app, ann)).used, 1)
})

t.test('a repeat after the first finished: 200 with the same generation and recipe, nothing spent; after 60 s it is new', async t => {
  const { app, provider, ann } = await setup(t)
  provider.fallback = recipeWith(['eggs', 'flour', 'milk'], { title: 'Pancakes' })
  const payload = { prompt: 'Pancakes', ingredients: ['eggs', 'Flour'], dietary: ['vegetarian'] }
  const first = await generate(app, ann, payload)
  t.equal(first.statusCode, 201)
  const again = await generate(app, ann, { ...payload, ingredients: ['flour', ' EGGS'], extra: 'ignored' })
  t.equal(again.statusCode, 200, 'the same request, in another case and order')
  t.equal(json(again).generationId, json(first).generationId)
  t.equal(json(again).recipe.id, json(first).recipe.id)
  t.equal(provider.requests.length, 1)
  t.equal((await usage(app, ann)).used, 1, 'a repeat spends nothing')
  t.equal((await history(app, ann)).length, 1, 'and is not a new generation')

  const bob = await registerUser(app)
  t.equal((await generate(app, bob, payload)).statusCode, 201, 'another user\'s identical request is their own')

  await app.db`update ai_generations set created_at = created_at - interval '2 minutes' where user_id = ${ann.id}`
  await app.db`update recipe_creation_keys set created_at = created_at - interval '2 minutes' where user_id = ${ann.id}`
  const later = await generate(app, ann, payload)
  t.equal(later.statusCode, 201, 'past the double-submit window it is a new generation')
  t.not(json(later).recipe.id, json(first).recipe.id)
  t.equal((await usage(app, ann)).used, 2)
})

t.test('Idempotency-Key: 24 hours, the same body only, failures may be retried, bounds checked', async t => {
  const { app, provider, ann } = await setup(t)
  const key = { 'idempotency-key': 'order-7f3a' }
  const body = { prompt: 'Lemonade', type: 'drink' }
  const first = await generate(app, ann, body, key)
  t.equal(first.statusCode, 201)
  t.equal(json(first).recipe.type, 'drink', 'the requested type wins over the model\'s')

  await app.db`update ai_generations set created_at = created_at - interval '3 hours' where user_id = ${ann.id}`
  await app.db`update recipe_creation_keys set created_at = created_at - interval '3 hours' where user_id = ${ann.id}`
  const again = await generate(app, ann, body, key)
  t.equal(again.statusCode, 200, 'hours later, the same key and body')
  t.equal(json(again).generationId, json(first).generationId)

  const other = await generate(app, ann, { prompt: 'Iced tea' }, key)
  t.equal(other.statusCode, 422)
  t.same(json(other), { success: false, error: 'This Idempotency-Key was already used with a different request', details: [] })

  const second = await generate(app, ann, body, { 'idempotency-key': 'order-8b1c' })
  t.equal(second.statusCode, 201, 'another key is another generation, even with the same body')
  t.not(json(second).generationId, json(first).generationId)
  t.equal(provider.requests.length, 2)
  t.equal((await usage(app, ann)).used, 2)

  provider.script({ status: 503, json: {} })
  t.equal((await generate(app, ann, { prompt: 'Smoothie' }, { 'idempotency-key': 'retry-me' })).statusCode, 502)
  const retried = await generate(app, ann, { prompt: 'Smoothie' }, { 'idempotency-key': 'retry-me' })
  t.equal(retried.statusCode, 201, 'a failed generation can be retried with its key')

  const long = await generate(app, ann, body, { 'idempotency-key': 'k'.repeat(201) })
  t.equal(long.statusCode, 400)
  t.equal(json(long).success, false)
  t.match(json(long).details, [/idempotency-key/])
})

t.test('request bounds: 400 envelope naming the field; the provider is never called', async t => {
  const { app, provider, ann } = await setup(t)
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{}, /prompt or ingredients is required/],
    [{ prompt: '   ' }, /prompt or ingredients is required/],
    [{ ingredients: [] }, /prompt or ingredients is required/],
    [{ cuisine: 'Thai' }, /prompt or ingredients is required/],
    [{ prompt: 'x'.repeat(2001) }, /^prompt/],
    [{ ingredients: Array.from({ length: 31 }, (_, i) => `item ${i}`) }, /^ingredients/],
    [{ ingredients: ['x'.repeat(101)] }, /^ingredients\[0\]/],
    [{ ingredients: [''] }, /^ingredients\[0\]/],
    [{ ingredients: 'flour' }, /^ingredients/],
    [{ prompt: 'x', cuisine: 'c'.repeat(101) }, /^cuisine/],
    [{ prompt: 'x', dietary: Array.from({ length: 11 }, (_, i) => `diet ${i}`) }, /^dietary/],
    [{ prompt: 'x', dietary: 'a'.repeat(501) }, /^dietary/],
    [{ prompt: 'x', dietary: 'vegan, ' + 'b'.repeat(51) }, /^dietary: each item at most 50/],
    [{ prompt: 'x', servings: 0 }, /^servings/],
    [{ prompt: 'x', servings: 101 }, /^servings/],
    [{ prompt: 'x', servings: 2.5 }, /^servings/],
    [{ prompt: 'x', type: 'snack' }, /^type: must be one of food, drink/]
  ]
  for (const [payload, detail] of cases) {
    const res = await generate(app, ann, payload)
    t.equal(res.statusCode, 400, JSON.stringify(payload).slice(0, 80))
    t.match(json(res), { success: false, error: 'Validation error' })
    t.ok(json(res).details.some((d: string) => detail.test(d)), `${JSON.stringify(json(res).details)} has ${detail}`)
  }
  t.equal(provider.requests.length, 0)
  t.equal((await history(app, ann)).length, 0, 'invalid requests are not logged')
})

t.test('a generation abandoned by a process that died gives its allowance back, exactly once', async t => {
  const { app, provider, ann } = await setup(t)
  let answer: () => void = () => {}
  const answered = new Promise<void>(resolve => { answer = resolve })
  provider.script(async () => { await answered; return { status: 500, json: { error: 'overloaded' } } })
  const pending = generate(app, ann, { prompt: 'the process dies during this one' })
  await eventually(async () => provider.requests.length === 1)
  t.equal((await usage(app, ann)).used, 1, 'the allowance is held while the provider works')

  // As a process that died would have left it: still pending, long past any provider timeout.
  await app.db`update ai_generations set created_at = now() - interval '20 minutes' where user_id = ${ann.id} and status = 'pending'`
  t.equal(await app.aiRecipeService.releaseAbandoned(), 1, 'the sweep finds it')
  t.equal((await usage(app, ann)).used, 0, 'and gives the allowance back')
  t.match((await history(app, ann))[0], { status: 'failed', error: 'Abandoned: the generation never finished' })
  t.equal(await app.aiRecipeService.releaseAbandoned(), 0, 'a second sweep finds nothing')

  // The request was alive after all: when it fails, it gives back nothing more.
  answer()
  t.equal((await pending).statusCode, 502)
  t.equal((await usage(app, ann)).used, 0, 'never below what was spent')
  t.match((await history(app, ann))[0], { status: 'failed', error: 'Abandoned: the generation never finished' }, 'the record is not rewritten')
})
