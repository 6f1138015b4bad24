// The popular order (GET /api/recipes?sort=popular, /popular, search by ingredients' most liked) reads
// recipe_popularity, kept by triggers beside recipes (migration 0024) so that no index of recipes reads like_count.
import t from 'tap'
import { bearer, build, createRecipe, json, registerUser, type TestUser } from '../../../helper.js'

t.test('the popular order follows likes, unlikes, moderation, visibility and deletion exactly', async t => {
  const app = await build(t)
  const [ann, bob] = [await registerUser(app), await registerUser(app)]
  const fans = await Promise.all([0, 1, 2].map(async () => await registerUser(app)))
  const soup = await createRecipe(app, ann, { title: 'Soup', ingredients: ['water'] })
  const salad = await createRecipe(app, ann, { title: 'Salad', ingredients: ['leaves'] })
  const stew = await createRecipe(app, bob, { title: 'Stew', ingredients: ['beef'] })
  const like = async (user: TestUser, id: string, method: 'POST' | 'DELETE' = 'POST') =>
    t.equal((await app.inject({ method, url: `/api/social/recipes/${id}/like`, headers: bearer(user) })).statusCode, 200)
  const popular = async (qs = '') => json(await app.inject(`/api/recipes?sort=popular${qs}`)).recipes.map((r: { id: string }) => r.id)
  const mostLiked = async () => json(await app.inject('/api/recipes/popular')).recipes.map((r: { id: string }) => r.id)
  /** Rows of recipes and recipe_popularity that disagree (none, whatever was written). */
  const drift = async () => await app.db`
    select coalesce(r.id, p.recipe_id) as id from recipes r full join recipe_popularity p on p.recipe_id = r.id
    where r.id is null or p.recipe_id is null or p.like_count <> r.like_count or p.created_at <> r.created_at
      or p.listed <> (r.published and r.visibility = 'public' and r.moderation_status in ('approved', 'pending'))`

  t.same(await popular(), [stew.id, salad.id, soup.id], 'no likes: newest first')
  for (const fan of fans) await like(fan, soup.id)
  await like(fans[0], salad.id)
  await like(fans[1], salad.id)
  t.same(await popular(), [soup.id, salad.id, stew.id], 'most liked first')
  t.same(await mostLiked(), [soup.id, salad.id, stew.id], '/popular reads the same order')
  t.same(await popular('&limit=1&page=2'), [salad.id], 'pages cut the same order')
  const signedIn = async (url: string) => json(await app.inject({ url, headers: bearer(fans[0]) })).recipes
  const top = await signedIn('/api/recipes/popular?limit=2')
  t.same(top.map((r: { id: string }) => r.id), [soup.id, salad.id], '/popular takes a limit')
  t.same(top, (await signedIn('/api/recipes?sort=popular')).slice(0, 2), 'whole recipes, as the listing shows them')
  t.same(top.map((r: { isLiked?: boolean }) => r.isLiked), [true, true], 'with the viewer\'s own likes')

  await like(fans[0], soup.id, 'DELETE')
  await like(fans[1], soup.id, 'DELETE')
  t.same(await popular(), [salad.id, soup.id, stew.id], 'unlikes move a recipe down')

  await app.db`update recipes set moderation_status = 'flagged' where id = ${salad.id}`
  t.same(await popular(), [soup.id, stew.id], 'a flagged recipe leaves the order')
  await app.db`update recipes set moderation_status = 'approved' where id = ${salad.id}`
  t.same(await popular(), [salad.id, soup.id, stew.id], 'and comes back when approved')
  t.equal((await app.inject({ method: 'PATCH', url: `/api/recipes/${soup.id}`, headers: bearer(ann), payload: { visibility: 'private' } })).statusCode, 200)
  t.same(await popular(), [salad.id, stew.id], 'a private recipe is not listed')
  t.same(await popular('&search=s'), [salad.id, stew.id], 'search in popular order walks the same rows')
  t.equal((await app.inject({ method: 'DELETE', url: `/api/recipes/${salad.id}`, headers: bearer(ann) })).statusCode, 200)
  t.same(await popular(), [stew.id], 'a deleted recipe is gone from the order')
  t.same(await drift(), [], 'recipe_popularity equals recipes row for row')
})

t.test('no index of recipes reads like_count, so a like updates the recipe in place (HOT)', async t => {
  const app = await build(t)
  const indexes = await app.db<Array<{ name: string }>>`
    select indexrelid::regclass::text as name from pg_index
    where indrelid = 'recipes'::regclass and pg_get_indexdef(indexrelid) ~ 'like_count'`
  t.same(indexes, [], 'like_count is in no index of recipes')
  const popularity = await app.db<Array<{ def: string }>>`
    select pg_get_indexdef(indexrelid) as def from pg_index where indrelid = 'recipe_popularity'::regclass and not indisprimary`
  t.match(popularity, [{ def: /\(like_count, created_at, recipe_id\) WHERE listed/ }], 'the popular order has its own index')
})
