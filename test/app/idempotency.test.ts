// Idempotency-Key on POST (plugins/app/idempotency.ts): a retry gets the first answer and creates nothing more.
import t from 'tap'
import { bearer, build, json, registerUser } from '../helper.js'

const recipe = { title: 'Retry soup', ingredients: ['1 onion'] }

t.test('a retried creation answers the first result and creates one recipe', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const send = async (payload: object, key = 'create-soup-1') => await app.inject({
    method: 'POST', url: '/api/recipes', headers: { ...bearer(user), 'idempotency-key': key }, payload
  })
  const first = await send(recipe)
  t.equal(first.statusCode, 201)
  t.notOk(first.headers['idempotent-replayed'])
  const retry = await send(recipe)
  t.equal(retry.statusCode, 201)
  t.equal(retry.headers['idempotent-replayed'], 'true')
  t.equal(json(retry).recipe.id, json(first).recipe.id, 'the same recipe')
  t.same(json(retry), json(first))
  const other = await send({ ...recipe, title: 'Another soup' })
  t.equal(other.statusCode, 422, 'the key with another body')
  t.match(json(other).error, /another request/)
  const [{ count }] = await app.db<Array<{ count: number }>>`select count(*)::int as count from recipes where author_id = ${user.id}`
  t.equal(count, 1)

  const bad = await send(recipe, 'has space')
  t.equal(bad.statusCode, 400)
  t.equal(json(bad).error, 'Validation error')
})

t.test('identical requests at once: one recipe, the other waits or replays', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const answers = await Promise.all(Array.from({ length: 5 }, async () => await app.inject({
    method: 'POST', url: '/api/recipes', headers: { ...bearer(user), 'idempotency-key': 'burst' }, payload: recipe
  })))
  for (const res of answers) t.ok(res.statusCode === 201 || res.statusCode === 409, `201 or 409 (${res.statusCode})`)
  const inProgress = answers.filter(res => res.statusCode === 409)
  for (const res of inProgress) t.equal(res.headers['retry-after'], '1')
  const [{ count }] = await app.db<Array<{ count: number }>>`select count(*)::int as count from recipes where author_id = ${user.id}`
  t.equal(count, 1, 'one recipe')
})

t.test('keys belong to their user; a refused (503) answer is not kept, so the retry runs', async t => {
  const app = await build(t, { env: { DB_LOCK_TIMEOUT_MS: '200' } })
  const [ann, bob] = [await registerUser(app), await registerUser(app)]
  const send = async (user: { token: string }) => await app.inject({
    method: 'POST', url: '/api/recipes', headers: { ...bearer(user), 'idempotency-key': 'shared-key' }, payload: recipe
  })
  const annFirst = await send(ann)
  const bobFirst = await send(bob)
  t.equal(bobFirst.statusCode, 201)
  t.notOk(bobFirst.headers['idempotent-replayed'], 'another user\'s key of the same name is not his')
  t.not(json(bobFirst).recipe.id, json(annFirst).recipe.id)

  // The recipes table locked elsewhere: the key is claimed, the creation then refused after DB_LOCK_TIMEOUT_MS.
  const carol = await registerUser(app)
  const locker = await app.db.reserve()
  await locker`begin`
  await locker`lock table recipes in access exclusive mode`
  const refused = await app.inject({
    method: 'POST', url: '/api/recipes', headers: { ...bearer(carol), 'idempotency-key': 'after-503' }, payload: recipe
  })
  await locker`rollback`
  locker.release()
  t.equal(refused.statusCode, 503)
  const retry = await app.inject({
    method: 'POST', url: '/api/recipes', headers: { ...bearer(carol), 'idempotency-key': 'after-503' }, payload: recipe
  })
  t.equal(retry.statusCode, 201, 'the retry creates the recipe')
  t.notOk(retry.headers['idempotent-replayed'])
})

t.test('the header is documented on POST routes', async t => {
  const app = await build(t)
  const doc = app.swagger() as { paths: Record<string, Record<string, { parameters?: Array<{ in: string, name: string }> }>> }
  const names = (doc.paths['/api/recipes'].post.parameters ?? []).filter(p => p.in === 'header').map(p => p.name)
  t.ok(names.includes('idempotency-key'))
})
