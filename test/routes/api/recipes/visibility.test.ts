// Every visibility rule, from every side: author, one-way follower, mutual friend, custom audience member,
// stranger and anonymous. A recipe the caller may not see is 404 and never appears in a list or a count.
import t from 'tap'
import { bearer, build, createRecipe, follow, json, registerUser, type TestUser } from '../../../helper.js'

t.test('visibility', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const follower = await registerUser(app)
  const friend = await registerUser(app)
  const member = await registerUser(app)
  const stranger = await registerUser(app)
  await follow(app, follower, author)
  await follow(app, friend, author)
  await follow(app, author, friend)

  const common = { ingredients: ['zzqx spice'], tags: ['vistest'], cuisine: 'Zzqxian' }
  const recipes = {
    public: await createRecipe(app, author, { ...common, title: 'Zzqx public' }),
    private: await createRecipe(app, author, { ...common, title: 'Zzqx private', visibility: 'private' }),
    friends: await createRecipe(app, author, { ...common, title: 'Zzqx friends', visibility: 'friends' }),
    custom: await createRecipe(app, author, { ...common, title: 'Zzqx custom', visibility: 'custom', audienceUserIds: [member.id, 'no-such-user'] }),
    draft: await createRecipe(app, author, { ...common, title: 'Zzqx draft', published: false }),
    rejected: await createRecipe(app, author, { ...common, title: 'Zzqx rejected' }),
    flagged: await createRecipe(app, author, { ...common, title: 'Zzqx flagged' }),
    pending: await createRecipe(app, author, { ...common, title: 'Zzqx pending' })
  }
  // Moderation is an admin action (no admin API yet): set in the table.
  await app.db`update recipes set moderation_status = 'rejected' where id = ${recipes.rejected.id}`
  await app.db`update recipes set moderation_status = 'flagged' where id = ${recipes.flagged.id}`
  await app.db`update recipes set moderation_status = 'pending' where id = ${recipes.pending.id}`

  const everything = Object.keys(recipes)
  const expected: Record<string, string[]> = {
    author: everything,
    friend: ['public', 'friends', 'pending'],
    member: ['public', 'custom', 'pending'],
    follower: ['public', 'pending'],
    stranger: ['public', 'pending'],
    anonymous: ['public', 'pending']
  }
  const viewers: Record<string, TestUser | null> = { author, friend, member, follower, stranger, anonymous: null }
  const headers = (viewer: TestUser | null) => viewer == null ? {} : bearer(viewer)
  const names = (list: Array<{ id: string }>) => list.map(r => Object.entries(recipes).find(([, v]) => v.id === r.id)![0]).sort()

  for (const [who, viewer] of Object.entries(viewers)) {
    t.test(who, async t => {
      for (const [name, recipe] of Object.entries(recipes)) {
        const res = await app.inject({ url: `/api/recipes/${recipe.id}`, headers: headers(viewer) })
        t.equal(res.statusCode, expected[who].includes(name) ? 200 : 404, `detail of ${name}`)
      }
      const own = json(await app.inject({ url: `/api/users/${author.username}/recipes?limit=50`, headers: headers(viewer) }))
      t.same(names(own.recipes), [...expected[who]].sort(), 'the author\'s recipe list')
      t.equal(own.pagination.total, expected[who].length, 'and its count')
      t.equal(json(await app.inject({ url: `/api/users/${author.username}`, headers: headers(viewer) })).user._count.recipes, expected[who].length, 'profile count')

      // Lists, search, tags and popular show published public recipes only, to everyone (the author included).
      const listed = ['pending', 'public']
      t.same(names(json(await app.inject({ url: '/api/recipes?limit=50', headers: headers(viewer) })).recipes), listed, 'recipe list')
      t.same(names(json(await app.inject({ url: '/api/recipes?search=zzqx&limit=50', headers: headers(viewer) })).recipes), listed, 'search')
      t.same(names(json(await app.inject({ url: '/api/tags/vistest/recipes', headers: headers(viewer) })).recipes), listed, 'tag listing')
      t.same(names(json(await app.inject({ url: '/api/recipes/popular?limit=50', headers: headers(viewer) })).recipes), listed, 'popular')
    })
  }

  t.test('aggregates count listed recipes only', async t => {
    t.same(json(await app.inject('/api/recipes/cuisines')).cuisines, [{ cuisine: 'Zzqxian', count: 2 }])
    t.same(json(await app.inject('/api/recipes/common-ingredients')).ingredients, [{ name: 'zzqx spice', count: 2 }])
    t.equal(json(await app.inject('/api/tags')).tags.find((x: { slug: string }) => x.slug === 'vistest').recipeCount, 2)
  })

  t.test('the custom audience can be changed', async t => {
    await app.inject({ method: 'PATCH', url: `/api/recipes/${recipes.custom.id}`, headers: bearer(author), payload: { audienceUserIds: [stranger.id] } })
    t.equal((await app.inject({ url: `/api/recipes/${recipes.custom.id}`, headers: bearer(stranger) })).statusCode, 200)
    t.equal((await app.inject({ url: `/api/recipes/${recipes.custom.id}`, headers: bearer(member) })).statusCode, 404)
  })
})
