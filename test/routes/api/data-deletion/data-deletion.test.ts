// Data deletion end to end: the request, its confirmation email, the job, and what is left afterwards (for the
// deleted user, for everyone else's counters, families and files).
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearer, build, createRecipe, eventually, expectValidationError, fileForm, follow, json, pngImage, registerUser, type TestUser } from '../../../helper.js'
import { createFamily, getFamily, joinFamily } from '../../../helpers/families.js'

const request = async (app: FastifyInstance, user: TestUser, payload: Record<string, unknown> = { deleteType: 'account' }) =>
  await app.inject({ method: 'POST', url: '/api/data-deletion', headers: bearer(user), payload })

const statusOf = async (app: FastifyInstance, id: string) => json(await app.inject(`/api/data-deletion/status/${id}`)).request

async function finished (app: FastifyInstance, id: string, status = 'completed') {
  return await eventually(async () => { const r = await statusOf(app, id); return r?.status === status && r }, 15_000)
}

const recipeOf = async (app: FastifyInstance, user: TestUser, id: string) =>
  json(await app.inject({ url: `/api/recipes/${id}`, headers: bearer(user) })).recipe

async function storedFiles (app: FastifyInstance, userId: string): Promise<string[]> {
  return await readdir(path.join(app.config.storage.localDir, userId)).catch(() => [])
}

t.test('an account deletion removes the user and all they own; everyone else stays exact', async t => {
  const app = await build(t)
  const leaving = await registerUser(app)
  const author = await registerUser(app)
  const other = await registerUser(app)

  // The leaving user's traces on someone else's recipe.
  const recipe = await createRecipe(app, author, { title: 'Bouillabaisse' })
  await app.inject({ method: 'POST', url: `/api/social/recipes/${recipe.id}/like`, headers: bearer(leaving) })
  await app.inject({ method: 'POST', url: `/api/social/recipes/${recipe.id}/like`, headers: bearer(other) })
  await app.inject({ method: 'POST', url: `/api/ratings/recipes/${recipe.id}`, headers: bearer(leaving), payload: { rating: 5 } })
  await app.inject({ method: 'POST', url: `/api/ratings/recipes/${recipe.id}`, headers: bearer(other), payload: { rating: 3 } })
  const comment = json(await app.inject({ method: 'POST', url: `/api/comments/recipe/${recipe.id}`, headers: bearer(leaving), payload: { content: 'Mine' } })).comment
  await app.inject({ method: 'POST', url: `/api/comments/${comment.id}/reply`, headers: bearer(other), payload: { content: 'A reply under it' } })
  await app.inject({ method: 'POST', url: `/api/comments/recipe/${recipe.id}`, headers: bearer(other), payload: { content: 'Theirs' } })
  await follow(app, leaving, author)
  await follow(app, author, leaving)
  t.match(await recipeOf(app, other, recipe.id), { likeCount: 2, ratingCount: 2, commentCount: 3 })

  // Their own things: recipes, an upload, a family they alone own with a member, a family with nobody else.
  const own = await createRecipe(app, leaving, { title: 'Leaving soon', tags: ['unique-tag-of-leaving'] })
  const form = fileForm('image', await pngImage(), 'image/png')
  const upload = json(await app.inject({ method: 'POST', url: '/api/upload/image', headers: { ...bearer(leaving), ...form.headers }, payload: form.payload }))
  t.equal((await storedFiles(app, leaving.id)).length, 1, 'the upload is stored')
  const shared = await createFamily(app, leaving, { name: 'Shared' })
  await joinFamily(app, other, shared)
  const alone = await createFamily(app, leaving, { name: 'Alone' })

  const res = await request(app, leaving, { deleteType: 'account', reason: 'Moving on' })
  t.equal(res.statusCode, 201)
  const body = json(res)
  t.match(body, { success: true, requestId: body.request.id, request: { deleteType: 'account', email: leaving.email, reason: 'Moving on' } })
  const done = await finished(app, body.requestId)
  t.match(done, { status: 'completed', deleteType: 'account', reason: null })
  t.equal(done.email, `${leaving.email[0]}***@example.com`, 'masked on the public route')
  t.ok(done.completedAt)

  t.test('the user is gone: token, login, profile, content', async t => {
    t.equal((await app.inject({ url: '/api/auth/me', headers: bearer(leaving) })).statusCode, 401)
    t.equal((await app.inject({ method: 'POST', url: '/api/auth/login', payload: { identifier: leaving.email, password: leaving.password } })).statusCode, 401)
    t.equal((await app.inject(`/api/users/${leaving.username}`)).statusCode, 404)
    t.equal((await app.inject({ url: `/api/recipes/${own.id}`, headers: bearer(author) })).statusCode, 404)
    t.equal((await app.inject('/api/tags/unique-tag-of-leaving')).statusCode, 404, 'the orphaned tag went with the recipe')
    for (const table of ['likes', 'ratings', 'comments', 'media', 'notifications', 'follows', 'family_members', 'push_subscriptions']) {
      const column = table === 'follows' ? 'follower_id' : 'user_id'
      const [{ n }] = await app.db<Array<{ n: number }>>`select count(*)::int as n from ${app.db(table)} where ${app.db(column)} = ${leaving.id}`
      t.equal(n, 0, `no ${table}`)
    }
    const [row] = await app.db<Array<{ userId: string | null, email: string }>>`select user_id, email from data_deletion_requests where id = ${body.requestId}`
    t.same(row, { userId: null, email: done.email }, 'only the request is left, address masked')
    const emails = await app.db<Array<{ kind: string, userId: string | null }>>`select kind, user_id from email_outbox where "to" = ${leaving.email}`
    t.same(emails, [{ kind: 'data-deletion', userId: null }], 'the log keeps only the confirmation, unlinked')
  })

  t.test('other users: counters exact, their content kept, files removed', async t => {
    t.match(await recipeOf(app, other, recipe.id), { likeCount: 1, ratingCount: 1, averageRating: 3, commentCount: 1 },
      'the like, the rating and the comment with the reply under it are gone from the counters')
    const comments = json(await app.inject(`/api/comments/recipe/${recipe.id}`))
    t.equal(comments.pagination.total, 1)
    t.equal(json(await app.inject(`/api/users/${author.username}`)).user._count.followers, 0)
    await eventually(async () => (await storedFiles(app, leaving.id)).length === 0)
    t.equal((await app.inject(new URL(upload.url).pathname)).statusCode, 404, 'the file is no longer served')
  })

  t.test('families: the one with a member passes to them, the empty one is deleted', async t => {
    const family = json(await getFamily(app, other, shared)).family
    t.equal(family.role, 'owner', 'the remaining member owns it')
    t.equal(family.memberCount, 1)
    t.equal((await app.db`select 1 from families where id = ${alone.id}`).length, 0)
  })
})

t.test('the confirmation email; the status route and cancel from both sides', async t => {
  const app = await build(t, { env: { DATA_DELETION_GRACE_SECONDS: '3600' } })
  const owner = await registerUser(app)
  const stranger = await registerUser(app)
  const { requestId, request: created } = json(await request(app, owner, { deleteType: 'data' }))
  t.equal(created.status, 'pending')
  t.ok(Date.parse(created.scheduledFor) > Date.now() + 3500_000, 'an hour of grace')

  const [mail] = await app.db<Array<{ subject: string, text: string }>>`select subject, text from email_outbox where user_id = ${owner.id} and kind = 'data-deletion'`
  t.match(mail.subject, /scheduled for deletion/)
  t.match(mail.text, `/api/data-deletion/status/${requestId}`)

  const status = await app.inject(`/api/data-deletion/status/${requestId}`)
  t.equal(status.statusCode, 200, 'public')
  t.notMatch(status.body, owner.email, 'no full address')
  const unknown = await app.inject('/api/data-deletion/status/nosuchrequest')
  t.equal(unknown.statusCode, 404)
  t.same(json(unknown).error, 'Request not found')

  t.same(json(await app.inject({ url: '/api/data-deletion', headers: bearer(stranger) })).requests, [], 'not in another user\'s list')
  const theirs = await app.inject({ method: 'POST', url: `/api/data-deletion/${requestId}/cancel`, headers: bearer(stranger) })
  t.equal(theirs.statusCode, 404, 'another user cannot cancel it')
  t.equal(json(theirs).error, 'Request not found')
  t.equal((await statusOf(app, requestId)).status, 'pending')

  const cancelled = await app.inject({ method: 'POST', url: `/api/data-deletion/${requestId}/cancel`, headers: bearer(owner) })
  t.equal(cancelled.statusCode, 200)
  t.equal(json(cancelled).request.status, 'cancelled')
  t.equal((await app.inject({ method: 'POST', url: `/api/data-deletion/${requestId}/cancel`, headers: bearer(owner) })).statusCode, 409)
  await app.dataDeletionService.run(requestId)
  t.equal((await statusOf(app, requestId)).status, 'cancelled', 'the job leaves a cancelled request alone')
  t.equal((await app.inject({ url: '/api/auth/me', headers: bearer(owner) })).statusCode, 200)
  t.equal(json(await app.inject({ url: '/api/data-deletion', headers: bearer(owner) })).pagination.total, 1)
})

t.test('repeated and concurrent requests make one', async t => {
  const app = await build(t, { env: { DATA_DELETION_GRACE_SECONDS: '3600' } })
  const user = await registerUser(app)
  const answers = await Promise.all([1, 2, 3, 4].map(async () => await request(app, user)))
  t.same(answers.map(a => a.statusCode).sort(), [200, 200, 200, 201])
  t.equal(new Set(answers.map(a => json(a).requestId)).size, 1)
  t.equal((await app.db`select 1 from email_outbox where user_id = ${user.id} and kind = 'data-deletion'`).length, 1, 'one email')
})

t.test('validation and sign-in', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  t.equal((await app.inject({ method: 'POST', url: '/api/data-deletion', payload: { deleteType: 'account' } })).statusCode, 401)
  expectValidationError(t, await request(app, user, { deleteType: 'everything' }), 'deleteType')
  expectValidationError(t, await request(app, user, { deleteType: 'data', reason: 'x'.repeat(1001) }), 'reason')
  t.equal((await app.db`select 1 from data_deletion_requests where user_id = ${user.id}`).length, 0)
})

t.test('a data deletion keeps the account and removes the content', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const author = await registerUser(app)
  const recipe = await createRecipe(app, author)
  await createRecipe(app, user, { title: 'Gone' })
  await app.inject({ method: 'POST', url: `/api/social/recipes/${recipe.id}/like`, headers: bearer(user) })
  await app.inject({ method: 'POST', url: `/api/comments/recipe/${recipe.id}`, headers: bearer(user), payload: { content: 'Hi' } })
  const imported = await app.inject({
    method: 'POST',
    url: '/api/recipe-import/from-text',
    headers: bearer(user),
    payload: { text: 'Toast\n\nIngredients\n- 1 slice bread\n\nMethod\n1. Toast it.' }
  })
  t.equal(imported.statusCode, 201)
  await app.db`insert into ai_generations (id, user_id, request, prompt, status, request_key) values ('gen-1', ${user.id}, '{}'::jsonb, 'my secret prompt', 'failed', 'k')`
  await eventually(async () => (await app.db`select 1 from import_logs where user_id = ${user.id}`).length > 0)
  const { requestId } = json(await request(app, user, { deleteType: 'data' }))
  await finished(app, requestId)
  t.equal((await app.inject({ url: '/api/auth/me', headers: bearer(user) })).statusCode, 200, 'still signed in')
  t.equal(json(await app.inject(`/api/users/${user.username}/recipes`)).pagination.total, 0)
  t.match(await recipeOf(app, author, recipe.id), { likeCount: 0, commentCount: 0 })
  t.equal((await app.db`select 1 from import_logs where user_id = ${user.id}`).length, 0, 'the import log is gone')
  t.equal((await app.db`select 1 from ai_generations where user_id = ${user.id}`).length, 0, 'the AI prompts are gone')
  t.equal((await statusOf(app, requestId)).email, `${user.email[0]}***@example.com`, 'masked on the status route')
})

t.test('killed midway, the job rolls back and finishes on its next attempt', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  await createRecipe(app, user)
  // Stands in for a crash inside the deletion: the transaction fails while the flag is up.
  await app.db.unsafe(`
    create table if not exists deletion_kill_switch (on_ boolean);
    insert into deletion_kill_switch values (true);
    create or replace function deletion_killed() returns trigger language plpgsql as $$
      begin if exists (select 1 from deletion_kill_switch) then raise exception 'killed midway'; end if; return old; end $$;
    create trigger deletion_killed before delete on users for each row execute function deletion_killed();`)
  t.teardown(async () => { await app.db.unsafe('drop trigger if exists deletion_killed on users') })

  const { requestId } = json(await request(app, user))
  await eventually(async () => (await app.db`select 1 from pgboss.job where name = 'data-deletion.run' and state = 'retry'`).length > 0, 15_000)
  t.equal((await statusOf(app, requestId)).status, 'processing', 'stuck in processing')
  t.equal((await app.db`select 1 from recipes where author_id = ${user.id}`).length, 1, 'nothing deleted: the transaction rolled back')

  await app.db`delete from deletion_kill_switch`
  await finished(app, requestId)
  t.equal((await app.db`select 1 from users where id = ${user.id}`).length, 0, 'deleted on the retry')
})
