// The most liked window of search by ingredients is kept per instance under the listing version: whatever changes the
// listing (a new, edited, hidden or deleted recipe) is seen by the very next search.
import t from 'tap'
import { bearer, build, createRecipe, registerUser } from '../../../helper.js'

t.test('the kept window never hides a change of the listing', async t => {
  const app = await build(t)
  const [cook, seeker] = [await registerUser(app), await registerUser(app)]
  // Only the window: no pair index, no word index.
  const bounds = { covering: 0, window: 100_000, budget: 1, cap: 0 }
  const titles = async () => (await app.ingredientSearchService.search(seeker.id, { ingredients: ['zqwater'], limit: 10 }, bounds))
    .map(match => match.recipe.title).sort()

  const first = await createRecipe(app, cook, { title: 'Window first', ingredients: ['zqwater', 'zqflour'] })
  t.same(await titles(), ['Window first'])
  const second = await createRecipe(app, cook, { title: 'Window second', ingredients: ['zqwater'] })
  t.same(await titles(), ['Window first', 'Window second'], 'a new recipe at once')
  t.equal((await app.inject({ method: 'PATCH', url: `/api/recipes/${first.id}`, headers: bearer(cook), payload: { ingredients: ['zqflour'] } })).statusCode, 200)
  t.same(await titles(), ['Window second'], 'edited ingredients at once')
  t.equal((await app.inject({ method: 'PATCH', url: `/api/recipes/${second.id}`, headers: bearer(cook), payload: { visibility: 'private' } })).statusCode, 200)
  t.same(await titles(), [], 'a recipe made private at once')
})
