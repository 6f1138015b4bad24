import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearer, build, createRecipe, expectValidationError, json, patchRecipe, registerUser, type TestUser } from '../../../helper.js'

interface Threaded { id: string, parentId: string | null, content: string, user: { id: string }, replies: Threaded[] }

const MAX_REPLY_DEPTH = 3

/** The deepest reply level of a thread list (top-level comments are level 0), walked without recursion. */
function deepest (threads: Threaded[]): { depth: number, count: number } {
  let depth = 0
  let count = 0
  const stack = threads.map(c => ({ c, level: 0 }))
  while (stack.length > 0) {
    const { c, level } = stack.pop()!
    count++
    depth = Math.max(depth, level)
    for (const r of c.replies) stack.push({ c: r, level: level + 1 })
  }
  return { depth, count }
}

async function notifications (app: FastifyInstance, user: TestUser): Promise<Array<{ type: string, actor: { id: string } | null, data: Record<string, unknown> }>> {
  const res = await app.inject({ url: '/api/notifications?limit=50', headers: bearer(user) })
  if (res.statusCode !== 200) throw new Error(`notifications: ${res.statusCode} ${res.body}`)
  return json(res).notifications
}

const commentCount = async (app: FastifyInstance, owner: TestUser, recipeId: string): Promise<number> =>
  json(await app.inject({ url: `/api/recipes/${recipeId}`, headers: bearer(owner) })).recipe.commentCount

t.test('threaded comments', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const recipe = await createRecipe(app, author, { title: 'Risotto' })
  const other = await createRecipe(app, author, { title: 'Other' })
  const hidden = await createRecipe(app, author, { visibility: 'private' })
  const post = (user: { token: string }, payload: Record<string, unknown>, id = recipe.id) =>
    app.inject({ method: 'POST', url: `/api/comments/recipe/${id}`, headers: bearer(user), payload })

  const first = await post(ann, { content: '  Lovely, with salt & pepper <3  ' })
  t.equal(first.statusCode, 201)
  const comment = json(first).comment
  t.equal(comment.content, 'Lovely, with salt & pepper <3', 'trimmed, text intact')
  t.equal(comment.isAuthor, false)
  t.equal(comment.user.id, ann.id)
  t.notOk('email' in comment.user)
  const byAuthor = json(await post(author, { content: 'Thanks!', parentId: comment.id })).comment
  t.equal(byAuthor.isAuthor, true, 'isAuthor marks the recipe author')
  const reply = await app.inject({ method: 'POST', url: `/api/comments/${comment.id}/reply`, headers: bearer(bob), payload: { content: 'Agreed' } })
  t.equal(reply.statusCode, 201)
  t.equal(json(reply).comment.parentId, comment.id)

  const list = json(await app.inject(`/api/comments/recipe/${recipe.id}`))
  t.equal(list.comments.length, 1, 'replies are nested under their parent')
  t.same(list.comments[0].replies.map((r: { content: string }) => r.content), ['Thanks!', 'Agreed'])
  t.match(list.pagination, { page: 1, limit: 12, total: 1, totalPages: 1, hasNext: false, hasPrev: false })
  t.equal(await commentCount(app, author, recipe.id), 3, 'counter includes replies')

  expectValidationError(t, await post(ann, { content: '   ' }), 'content')
  expectValidationError(t, await post(ann, { content: 'x'.repeat(10_001) }), 'content')
  expectValidationError(t, await app.inject({ url: `/api/comments/recipe/${recipe.id}?limit=51` }), 'limit')
  t.equal((await post(ann, { content: 'x'.repeat(10_000) })).statusCode, 201, '10,000 characters is fine')
  t.equal((await post(ann, { content: 'hi', parentId: 'no-such-comment' })).statusCode, 404, 'missing parent')
  const wrongRecipe = await post(ann, { content: 'hi', parentId: comment.id }, other.id)
  t.equal(wrongRecipe.statusCode, 400, 'a parent on another recipe')
  t.equal((await post(ann, { content: 'hi' }, hidden.id)).statusCode, 404, 'a recipe the caller cannot see')
  t.equal((await app.inject(`/api/comments/recipe/${hidden.id}`)).statusCode, 404)
  const hiddenComment = json(await post(author, { content: 'note to self' }, hidden.id)).comment
  t.equal((await post(ann, { content: 'hi', parentId: hiddenComment.id })).statusCode, 404, 'a parent on a recipe the caller cannot see is not revealed')
  t.equal((await app.inject({ method: 'POST', url: `/api/comments/${hiddenComment.id}/reply`, headers: bearer(ann), payload: { content: 'hi' } })).statusCode, 404)
  t.equal((await app.inject({ method: 'POST', url: `/api/comments/recipe/${recipe.id}`, payload: { content: 'anon' } })).statusCode, 401)

  await t.test('notifications: author for comments, parent author for replies, never yourself', async t => {
    const toAuthor = await notifications(app, author)
    t.ok(toAuthor.some(n => n.type === 'comment' && n.actor?.id === ann.id), 'the recipe author hears of the comment')
    t.ok(toAuthor.some(n => n.type === 'comment' && n.actor?.id === bob.id), 'and of the reply')
    t.notOk(toAuthor.some(n => n.actor?.id === author.id), 'not of their own reply')
    const toAnn = await notifications(app, ann)
    t.ok(toAnn.some(n => n.type === 'reply' && n.actor?.id === bob.id && n.data.parentId === comment.id), 'the parent author hears of the reply')
    t.ok(toAnn.some(n => n.type === 'reply' && n.actor?.id === author.id), 'also when the recipe author replies')
    t.notOk(toAnn.some(n => n.actor?.id === ann.id), 'nobody is notified of their own comment')
  })

  await t.test('edit and delete: the comment author only', async t => {
    const edit = (user: { token: string }) => app.inject({ method: 'PUT', url: `/api/comments/${comment.id}`, headers: bearer(user), payload: { content: 'Edited' } })
    t.equal((await edit(bob)).statusCode, 403, 'another user cannot edit my comment')
    t.equal((await edit(author)).statusCode, 403, 'not even the recipe author')
    expectValidationError(t, await app.inject({ method: 'PUT', url: `/api/comments/${comment.id}`, headers: bearer(ann), payload: { content: ' ' } }), 'content')
    const edited = await edit(ann)
    t.equal(edited.statusCode, 200)
    t.equal(json(edited).comment.content, 'Edited')
    const denied = await app.inject({ method: 'DELETE', url: `/api/comments/${comment.id}`, headers: bearer(author) })
    t.equal(denied.statusCode, 403)
    t.same(json(denied), { error: 'Not authorized to delete this comment' })
    t.equal((await app.inject({ method: 'DELETE', url: `/api/comments/${comment.id}`, headers: bearer(bob) })).statusCode, 403, 'another user cannot delete my comment')
    const before = await commentCount(app, author, recipe.id)
    const del = await app.inject({ method: 'DELETE', url: `/api/comments/${comment.id}`, headers: bearer(ann) })
    t.equal(del.statusCode, 200)
    t.same(json(del), { message: 'Comment deleted' })
    t.equal(await commentCount(app, author, recipe.id), before - 3, 'the replies went with it, and the counter is exact')
    t.equal((await app.inject({ method: 'DELETE', url: `/api/comments/${comment.id}`, headers: bearer(ann) })).statusCode, 404)
  })
})

t.test('a long reply chain stays readable: depth capped, threads paged', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const recipe = await createRecipe(app, author)
  const url = `/api/comments/recipe/${recipe.id}`

  const top = json(await app.inject({ method: 'POST', url, headers: bearer(ann), payload: { content: 'top' } })).comment
  let previous = top
  const CHAIN = 300
  for (let i = 0; i < CHAIN; i++) {
    const res = await app.inject({ method: 'POST', url, headers: bearer(i % 2 === 0 ? bob : ann), payload: { content: `reply ${i}`, parentId: previous.id } })
    if (res.statusCode !== 201) throw new Error(`reply ${i}: ${res.statusCode} ${res.body}`)
    previous = json(res).comment
  }

  const read = await app.inject(url)
  t.equal(read.statusCode, 200, 'the thread reads')
  const { comments, pagination } = json(read)
  const { depth, count } = deepest(comments)
  t.equal(count, CHAIN + 1, 'every reply is there')
  t.equal(depth, MAX_REPLY_DEPTH, `nested ${MAX_REPLY_DEPTH} replies deep at most`)
  t.equal(pagination.total, 1, 'pages count top-level comments')
  t.equal(await commentCount(app, author, recipe.id), CHAIN + 1)

  const reply = await app.inject({ method: 'POST', url: `/api/comments/${previous.id}/reply`, headers: bearer(author), payload: { content: 'deepest' } })
  t.equal(reply.statusCode, 201)
  t.equal(json(reply).comment.parentId, previous.parentId, 'a reply to the deepest level is filed next to the comment answered')
  const answered = previous.user.id === ann.id ? ann : bob
  t.ok((await notifications(app, answered)).some(n => n.type === 'reply' && n.actor?.id === author.id && n.data.parentId === previous.id),
    'and its author is notified')

  await t.test('paging top-level comments', async t => {
    for (const content of ['second', 'third', 'fourth', 'fifth']) {
      t.equal((await app.inject({ method: 'POST', url, headers: bearer(bob), payload: { content } })).statusCode, 201)
    }
    const page1 = json(await app.inject(`${url}?page=1&limit=2`))
    t.same(page1.comments.map((c: Threaded) => c.content), ['top', 'second'])
    t.match(page1.pagination, { page: 1, limit: 2, total: 5, totalPages: 3, hasNext: true, hasPrev: false })
    t.ok(page1.comments[0].replies.length > 0, 'replies come with their thread')
    const page3 = json(await app.inject(`${url}?page=3&limit=2`))
    t.same(page3.comments.map((c: Threaded) => c.content), ['fifth'])
    t.match(page3.pagination, { hasNext: false, hasPrev: true })
    t.same(json(await app.inject(`${url}?page=4&limit=2`)).comments, [], 'past the end: empty')
  })

  await t.test('deleting the chain keeps the counter exact', async t => {
    const del = await app.inject({ method: 'DELETE', url: `/api/comments/${top.id}`, headers: bearer(ann) })
    t.equal(del.statusCode, 200)
    t.equal(await commentCount(app, author, recipe.id), 4, 'only the four other top-level comments remain')
    t.equal(json(await app.inject(url)).pagination.total, 4)
  })
})

t.test('the counter stays exact when a thread is deleted while people reply to it', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const recipe = await createRecipe(app, author)
  const url = `/api/comments/recipe/${recipe.id}`
  await app.inject({ method: 'POST', url, headers: bearer(bob), payload: { content: 'stays' } })
  const top = json(await app.inject({ method: 'POST', url, headers: bearer(ann), payload: { content: 'goes' } })).comment
  const child = json(await app.inject({ method: 'POST', url, headers: bearer(bob), payload: { content: 'child', parentId: top.id } })).comment

  const replies = Array.from({ length: 20 }, async (_, i) =>
    await app.inject({ method: 'POST', url, headers: bearer(bob), payload: { content: `r${i}`, parentId: i % 2 === 0 ? top.id : child.id } }))
  const [del, ...results] = await Promise.all([app.inject({ method: 'DELETE', url: `/api/comments/${top.id}`, headers: bearer(ann) }), ...replies])
  t.equal(del.statusCode, 200)
  t.ok(results.every(r => r.statusCode === 201 || r.statusCode === 404), 'each reply either lands before the delete or finds its parent gone')
  const all = json(await app.inject({ url: `/api/social/recipes/${recipe.id}/comments?limit=50`, headers: bearer(bob) }))
  t.same(all.comments.map((c: { content: string }) => c.content), ['stays'], 'the whole thread went')
  t.equal(await commentCount(app, author, recipe.id), 1, 'and the counter matches')
})

t.test('removing your own comment after the recipe turned private', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const recipe = await createRecipe(app, author)
  const mine = json(await app.inject({ method: 'POST', url: `/api/comments/recipe/${recipe.id}`, headers: bearer(ann), payload: { content: 'mine' } })).comment
  const older = json(await app.inject({ method: 'POST', url: `/api/social/recipes/${recipe.id}/comments`, headers: bearer(ann), payload: { content: 'older' } })).comment
  const authors = json(await app.inject({ method: 'POST', url: `/api/comments/recipe/${recipe.id}`, headers: bearer(author), payload: { content: 'by the author' } })).comment
  await patchRecipe(app, author, recipe.id, { visibility: 'private' })

  t.equal((await app.inject({ method: 'PUT', url: `/api/comments/${mine.id}`, headers: bearer(ann), payload: { content: 'x' } })).statusCode, 404,
    'editing needs the recipe to be visible')
  const del = await app.inject({ method: 'DELETE', url: `/api/comments/${mine.id}`, headers: bearer(ann) })
  t.equal(del.statusCode, 200)
  t.same(json(del), { message: 'Comment deleted' }, 'nothing about the recipe in the answer')
  const delOld = await app.inject({ method: 'DELETE', url: `/api/social/recipes/${recipe.id}/comments/${older.id}`, headers: bearer(ann) })
  t.equal(delOld.statusCode, 200, 'the older route too')
  t.same(json(delOld), { message: 'Comment deleted' })
  t.equal(await commentCount(app, author, recipe.id), 1)

  const unknown = await app.inject({ method: 'DELETE', url: '/api/comments/no-such-comment', headers: bearer(bob) })
  const stranger = await app.inject({ method: 'DELETE', url: `/api/comments/${authors.id}`, headers: bearer(bob) })
  t.equal(stranger.statusCode, 404, 'someone else\'s comment on a recipe I cannot see: 404')
  t.same(json(stranger), json(unknown), 'exactly like an unknown id')
  const strangerOld = await app.inject({ method: 'DELETE', url: `/api/social/recipes/${recipe.id}/comments/${authors.id}`, headers: bearer(bob) })
  t.equal(strangerOld.statusCode, 404)
  t.same(json(strangerOld), json(unknown))
  t.equal(await commentCount(app, author, recipe.id), 1, 'the author\'s comment is still there')
})

t.test('older comment routes', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const recipe = await createRecipe(app, author)
  const other = await createRecipe(app, author)
  const url = `/api/social/recipes/${recipe.id}/comments`

  t.equal((await app.inject(url)).statusCode, 401, 'signed-in users only')
  const created = await app.inject({ method: 'POST', url, headers: bearer(ann), payload: { content: ' First! ' } })
  t.equal(created.statusCode, 201)
  const id = json(created).comment.id
  t.equal(json(created).comment.content, 'First!')
  expectValidationError(t, await app.inject({ method: 'POST', url, headers: bearer(ann), payload: { content: '' } }), 'content')
  expectValidationError(t, await app.inject({ method: 'POST', url, headers: bearer(ann), payload: { content: '  \n ' } }), 'content')
  const list = json(await app.inject({ url, headers: bearer(bob) }))
  t.same(list.comments.map((c: { id: string }) => c.id), [id])
  t.equal(list.pagination.total, 1)

  await t.test('the flat list pages, replies included', async t => {
    const reply = await app.inject({ method: 'POST', url: `/api/comments/${id}/reply`, headers: bearer(bob), payload: { content: 'threaded reply' } })
    t.equal(reply.statusCode, 201)
    for (const content of ['b', 'c']) await app.inject({ method: 'POST', url, headers: bearer(bob), payload: { content } })
    const page1 = json(await app.inject({ url: `${url}?limit=2`, headers: bearer(bob) }))
    t.same(page1.comments.map((c: { content: string }) => c.content), ['First!', 'threaded reply'])
    t.match(page1.pagination, { total: 4, totalPages: 2, hasNext: true })
    t.same(json(await app.inject({ url: `${url}?page=2&limit=2`, headers: bearer(bob) })).comments.map((c: { content: string }) => c.content), ['b', 'c'])
  })

  t.equal((await app.inject({ method: 'DELETE', url: `/api/social/recipes/${other.id}/comments/${id}`, headers: bearer(ann) })).statusCode, 404,
    'the comment must be on the recipe in the path')
  const denied = await app.inject({ method: 'DELETE', url: `${url}/${id}`, headers: bearer(bob) })
  t.equal(denied.statusCode, 403, 'another user cannot delete my comment')
  t.same(json(denied), { error: 'Not authorized to delete this comment' })
  t.equal((await app.inject({ method: 'DELETE', url: `${url}/${id}`, headers: bearer(author) })).statusCode, 200, 'the recipe author may delete')
  const own = json(await app.inject({ method: 'POST', url, headers: bearer(bob), payload: { content: 'mine' } })).comment.id
  t.equal((await app.inject({ method: 'DELETE', url: `${url}/${own}`, headers: bearer(bob) })).statusCode, 200, 'and so may the comment author')

  const selfComment = await app.inject({ method: 'POST', url, headers: bearer(author), payload: { content: 'my own recipe' } })
  t.equal(selfComment.statusCode, 201)
  t.notOk((await notifications(app, author)).some(n => n.actor?.id === author.id), 'the author is not notified of their own comment')
  t.ok((await notifications(app, author)).some(n => n.type === 'comment' && n.actor?.id === ann.id), 'but of others\' comments')
})
