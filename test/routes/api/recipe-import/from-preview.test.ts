// from-preview takes a preview as a client builds one by hand (a title and a line or a step), and from-text tells
// blank text (400) from text without a recipe (422).
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearer, build, json, registerUser, type TestUser } from '../../../helper.js'

const post = async (app: FastifyInstance, user: TestUser, route: string, payload: object) =>
  await app.inject({ method: 'POST', url: `/api/recipe-import/${route}`, headers: bearer(user), payload })

t.test('from-preview: only a title and one ingredient or step are required', async t => {
  const app = await build(t)
  const ann = await registerUser(app)

  const byHand = await post(app, ann, 'from-preview', { preview: { title: 'Toast', ingredients: ['2 slices bread', { name: 'butter' }], instructions: ['Toast the bread.', { text: 'Butter it.' }] } })
  t.equal(byHand.statusCode, 201, byHand.body)
  const recipe = json(byHand).recipe
  t.match(recipe, { title: 'Toast', published: false, servings: null, imageUrl: null })
  t.match(recipe.ingredients, [{ text: '2 slices bread', name: 'bread', quantity: 2 }, { name: 'butter' }], 'lines are parsed as in a new recipe')
  t.same(recipe.instructions.map((s: { text: string }) => s.text), ['Toast the bread.', 'Butter it.'])

  const stepsOnly = await post(app, ann, 'from-preview', { preview: { title: 'Boiled water', instructions: ['Boil it.'] } })
  t.equal(stepsOnly.statusCode, 201, 'steps alone are enough')
  const linesOnly = await post(app, ann, 'from-preview', { preview: { title: 'Trail mix', ingredients: ['1 cup nuts', '1 cup raisins'] } })
  t.equal(linesOnly.statusCode, 201, 'ingredients alone are enough')

  for (const [preview, detail] of [
    [{ title: 'Nothing yet' }, 'preview: needs at least one ingredient or step'],
    [{ title: 'Blank lines', ingredients: ['  '], instructions: [''] }, 'preview: needs at least one ingredient or step'],
    [{ ingredients: ['1 egg'] }, 'preview.title: is required'],
    [{ title: '   ', ingredients: ['1 egg'] }, 'preview.title: must match pattern "\\S"'],
    [{ title: 'Typed', ingredients: ['1 egg'], servings: 'four' }, 'preview.servings: must be integer,null'],
    [{ title: 'Bounded', ingredients: ['x'.repeat(1001)] }, 'preview.ingredients[0]: is not an allowed value'],
    [{ title: 'Local image', ingredients: ['1 egg'], imageUrl: 'file:///etc/passwd' }, 'preview.imageUrl: must match pattern "^https?://"']
  ] as const) {
    const res = await post(app, ann, 'from-preview', { preview })
    t.equal(res.statusCode, 400, JSON.stringify(preview))
    t.match(json(res), { success: false, error: 'Validation error' })
    t.ok(json(res).details.includes(detail), `${detail} in ${JSON.stringify(json(res).details)}`)
  }
  t.equal(json(await app.inject({ url: '/api/subscriptions/me', headers: bearer(ann) })).usage.imports.used, 3, 'refusals spend no import')
})

t.test('from-text: blank text is a validation error, text without a recipe is 422', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  for (const text of ['   ', '\n\n\t', '']) {
    const res = await post(app, ann, 'from-text', { text })
    t.equal(res.statusCode, 400, JSON.stringify(text))
    t.match(json(res), { success: false, error: 'Validation error', details: [/^text: /] })
  }
  const prose = await post(app, ann, 'from-text', { text: 'just a sentence about nothing in particular' })
  t.equal(prose.statusCode, 422)
  t.same(json(prose), { success: false, error: 'No recipe found', details: [] })
})
