import t from 'tap'
import { bearer, build, createRecipe, eventually, expectValidationError, json, registerUser } from '../../../helper.js'

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

  const list = json(await app.inject(`/api/comments/recipe/${recipe.id}`)).comments
  t.equal(list.length, 1, 'replies are nested under their parent')
  t.same(list[0].replies.map((r: { content: string }) => r.content), ['Thanks!', 'Agreed'])
  t.equal(json(await app.inject(`/api/recipes/${recipe.id}`)).recipe.commentCount, 3, 'counter includes replies')

  expectValidationError(t, await post(ann, { content: '   ' }), 'content')
  expectValidationError(t, await post(ann, { content: 'x'.repeat(10_001) }), 'content')
  t.equal((await post(ann, { content: 'x'.repeat(10_000) })).statusCode, 201, '10,000 characters is fine')
  t.equal((await post(ann, { content: 'hi', parentId: 'no-such-comment' })).statusCode, 404, 'missing parent')
  const wrongRecipe = await post(ann, { content: 'hi', parentId: comment.id }, other.id)
  t.equal(wrongRecipe.statusCode, 400, 'a parent on another recipe')
  t.equal((await post(ann, { content: 'hi' }, hidden.id)).statusCode, 404, 'a recipe the caller cannot see')
  t.equal((await app.inject(`/api/comments/recipe/${hidden.id}`)).statusCode, 404)

  t.test('edit and delete: the comment author only', async t => {
    const edit = (user: { token: string }) => app.inject({ method: 'PUT', url: `/api/comments/${comment.id}`, headers: bearer(user), payload: { content: 'Edited' } })
    t.equal((await edit(bob)).statusCode, 403)
    t.equal((await edit(author)).statusCode, 403, 'not even the recipe author')
    const edited = await edit(ann)
    t.equal(edited.statusCode, 200)
    t.equal(json(edited).comment.content, 'Edited')
    const denied = await app.inject({ method: 'DELETE', url: `/api/comments/${comment.id}`, headers: bearer(author) })
    t.equal(denied.statusCode, 403)
    t.same(json(denied), { error: 'Not authorized to delete this comment' })
    const del = await app.inject({ method: 'DELETE', url: `/api/comments/${comment.id}`, headers: bearer(ann) })
    t.equal(del.statusCode, 200)
    t.same(json(del), { message: 'Comment deleted' })
    t.equal(json(await app.inject(`/api/recipes/${recipe.id}`)).recipe.commentCount, 1, 'the replies went with it')
    t.equal((await app.inject({ method: 'DELETE', url: `/api/comments/${comment.id}`, headers: bearer(ann) })).statusCode, 404)
  })

  t.test('notifications: author for comments, parent author for replies, never yourself', async t => {
    const rows = await eventually(async () => {
      const r = await app.sql`select user_id, type, actor_id from notifications order by created_at`
      return r.length >= 4 && r
    })
    t.ok(rows.some(r => r.user_id === author.id && r.type === 'comment' && r.actor_id === ann.id))
    t.ok(rows.some(r => r.user_id === ann.id && r.type === 'reply' && r.actor_id === bob.id))
    t.notOk(rows.some(r => r.user_id === r.actor_id), 'nobody is notified of their own comment')
  })
})

t.test('older comment routes', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const recipe = await createRecipe(app, author)
  const url = `/api/social/recipes/${recipe.id}/comments`

  t.equal((await app.inject(url)).statusCode, 401, 'signed-in users only')
  const created = await app.inject({ method: 'POST', url, headers: bearer(ann), payload: { content: ' First! ' } })
  t.equal(created.statusCode, 201)
  const id = json(created).comment.id
  t.equal(json(created).comment.content, 'First!')
  expectValidationError(t, await app.inject({ method: 'POST', url, headers: bearer(ann), payload: { content: '' } }), 'content')
  t.same(json(await app.inject({ url, headers: bearer(bob) })).comments.map((c: { id: string }) => c.id), [id])

  const denied = await app.inject({ method: 'DELETE', url: `${url}/${id}`, headers: bearer(bob) })
  t.equal(denied.statusCode, 403)
  t.same(json(denied), { error: 'Not authorized to delete this comment' })
  t.equal((await app.inject({ method: 'DELETE', url: `${url}/${id}`, headers: bearer(author) })).statusCode, 200, 'the recipe author may delete')
  const own = json(await app.inject({ method: 'POST', url, headers: bearer(bob), payload: { content: 'mine' } })).comment.id
  t.equal((await app.inject({ method: 'DELETE', url: `${url}/${own}`, headers: bearer(bob) })).statusCode, 200, 'and so may the comment author')
})
