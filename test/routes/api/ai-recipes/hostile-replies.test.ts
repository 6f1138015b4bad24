// POST /api/ai-recipes/generate when the model's replies are hostile (test/helpers/hostile-ai-replies.ts): a reply of
// nested braces or of JSON nested too deep to use is the 502 of an unusable recipe after its one repair, never a 500,
// and a recipe of 30,000 ingredients is saved with the first 200. Replies this large are read on a worker thread.
import t, { type Test } from 'tap'
import { completion, fakeProvider } from '../../../helpers/ai-provider.js'
import { hostileReplies, recipeReply } from '../../../helpers/hostile-ai-replies.js'
import { bearer, build, json, registerUser } from '../../../helper.js'
import { RECIPE_LIMITS } from '../../../../schemas/recipes.js'

async function setup (t: Test) {
  const provider = await fakeProvider(t)
  const app = await build(t, { env: provider.env() })
  const ann = await registerUser(app)
  const generate = async (prompt: string) => await app.inject({ method: 'POST', url: '/api/ai-recipes/generate', headers: bearer(ann), payload: { prompt } })
  const used = async () => json(await app.inject({ url: '/api/ai-recipes/usage', headers: bearer(ann) })).used as number
  return { app, provider, generate, used }
}

t.test('nested braces, twice: 502 unusable recipe after one repair, the allowance given back', async t => {
  const { provider, generate, used } = await setup(t)
  const braces = '{'.repeat(30_000) + '}'.repeat(30_000)
  provider.script(completion(braces), completion(braces))
  const res = await generate('a cake')
  t.equal(res.statusCode, 502, res.body)
  t.same(json(res), {
    success: false,
    error: 'AI provider returned an unusable recipe',
    details: ['attempt 1: reply: is not a JSON object', 'attempt 2: reply: is not a JSON object']
  })
  t.equal(provider.requests.length, 2, 'one repair')
  t.equal(await used(), 0)
})

t.test('JSON nested too deep to use, then braces that never close: 502, not 500', async t => {
  const { provider, generate } = await setup(t)
  const replies = hostileReplies(600_000)
  provider.script(completion(replies['deeply nested JSON']), completion(replies['braces never closed']))
  const res = await generate('a pie')
  t.equal(res.statusCode, 502, res.body)
  const body = json(res)
  t.match(body, { success: false, error: 'AI provider returned an unusable recipe', details: [/^attempt 1: /] })
  t.equal(body.details.at(-1), 'attempt 2: reply: is not a JSON object', body.details.join('; '))
})

t.test('a recipe of 30,000 ingredients (850 kB): saved with the first 200', async t => {
  const { provider, generate, used } = await setup(t)
  const reply = recipeReply(30_000)
  t.ok(reply.length > 700_000)
  provider.script(completion(reply))
  const res = await generate('bread for a crowd')
  t.equal(res.statusCode, 201, res.body.slice(0, 500))
  const { ingredients, title } = json(res).recipe
  t.equal(title, 'Big Batch Bread')
  t.equal(ingredients.length, RECIPE_LIMITS.ingredients)
  t.match(ingredients[RECIPE_LIMITS.ingredients - 1], { name: `flour number ${RECIPE_LIMITS.ingredients - 1}`, quantity: RECIPE_LIMITS.ingredients, unit: 'gram' })
  t.equal(provider.requests.length, 1)
  t.equal(await used(), 1)
})
