import t from 'tap'
import {
  adminBearer, bearer, build, createAdmin, createRecipe, expectValidationError, json, registerUser, type TestUser
} from '../../../helper.js'

const UNKNOWN_ID = 'zz0000000000000000000000'

t.test('admin reports', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const asAdmin = adminBearer(admin)

  const fileReport = async (reporter: TestUser, type: 'recipe' | 'comment' | 'user', targetId: string, reason = 'Inappropriate') => {
    const res = await app.inject({ method: 'POST', url: '/api/reports', headers: bearer(reporter), payload: { type, targetId, reason } })
    t.equal(res.statusCode, 201, `report of ${type} filed`)
    return json(res).report as { id: string }
  }
  const comment = async (user: TestUser, recipeId: string, content: string, parentId?: string) => {
    const res = await app.inject({ method: 'POST', url: `/api/comments/recipe/${recipeId}`, headers: bearer(user), payload: { content, parentId } })
    t.equal(res.statusCode, 201, 'comment posted')
    return json(res).comment as { id: string }
  }
  const review = async (reportId: string, payload: Record<string, unknown>) =>
    await app.inject({ method: 'PATCH', url: `/api/admin/reports/${reportId}`, headers: asAdmin, payload })
  const list = async (query = '') => {
    const res = await app.inject({ url: `/api/admin/reports?${query}`, headers: asAdmin })
    t.equal(res.statusCode, 200, `list ${query}`)
    return json(res)
  }
  const recipeAs = async (recipeId: string, user: TestUser | null) =>
    await app.inject({ url: `/api/recipes/${recipeId}`, headers: user == null ? {} : bearer(user) })
  const commentCount = async (recipeId: string, author: TestUser) => json(await recipeAs(recipeId, author)).recipe.commentCount as number
  const me = async (user: TestUser) => (await app.inject({ url: '/api/auth/me', headers: bearer(user) })).statusCode

  t.test('no token and a user token get 401 on every route, and change nothing', async t => {
    const reporter = await registerUser(app)
    const author = await registerUser(app)
    const recipe = await createRecipe(app, author)
    const report = await fileReport(reporter, 'recipe', recipe.id)
    const routes: Array<[method: 'GET' | 'PATCH', url: string, payload?: Record<string, unknown>]> = [
      ['GET', '/api/admin/reports'],
      ['PATCH', `/api/admin/reports/${report.id}`, { status: 'resolved', action: 'reject_recipe' }]
    ]
    for (const [method, url, payload] of routes) {
      for (const [who, headers] of [['no token', {}], ['user token', bearer(reporter)]] as const) {
        t.equal((await app.inject({ method, url, headers, ...(payload != null && { payload }) })).statusCode, 401, `${who}: ${method} ${url}`)
      }
    }
    t.equal((await recipeAs(recipe.id, null)).statusCode, 200, 'the recipe was not rejected')
    const listed = (await list('type=recipe')).reports.find((r: { id: string }) => r.id === report.id)
    t.match(listed, { status: 'pending', action: null, reviewedBy: null })
  })

  t.test('list: reporter, target summaries, filters, newest first', async t => {
    const reporter = await registerUser(app)
    const author = await registerUser(app)
    const recipe = await createRecipe(app, author, { title: 'Reported stew' })
    const long = `${'Very rude words. '.repeat(20)}THE END`
    const remark = await comment(author, recipe.id, long)
    const before = await list()

    const onRecipe = await fileReport(reporter, 'recipe', recipe.id, 'Stolen recipe')
    const onComment = await fileReport(reporter, 'comment', remark.id, 'Rude')
    const onUser = await fileReport(reporter, 'user', author.id, 'Spammer')

    const all = await list()
    t.same(all.reports.slice(0, 3).map((r: { id: string }) => r.id), [onUser.id, onComment.id, onRecipe.id], 'newest first')
    t.equal(all.pagination.total, before.pagination.total + 3)
    t.match(all.pagination, { totalExact: true })
    const [user, remarkReport, recipeReport] = all.reports
    t.match(recipeReport, {
      id: onRecipe.id,
      type: 'recipe',
      targetId: recipe.id,
      reason: 'Stolen recipe',
      details: null,
      status: 'pending',
      resolution: null,
      action: null,
      reporter: { id: reporter.id, username: reporter.username },
      reviewedBy: null,
      reviewedAt: null,
      target: { summary: 'Reported stew', owner: { id: author.id, username: author.username }, recipeId: recipe.id, state: 'approved' }
    })
    t.match(remarkReport.target, { owner: { id: author.id }, recipeId: recipe.id, state: null })
    t.equal(remarkReport.target.summary, long.slice(0, 200), 'a comment is summarised by its first 200 characters')
    t.match(user.target, { summary: author.username, owner: { id: author.id }, recipeId: null, state: 'active' })

    t.same((await list('type=comment')).reports.map((r: { id: string }) => r.id).filter((id: string) => [onRecipe.id, onComment.id, onUser.id].includes(id)), [onComment.id], 'type filter')
    t.equal((await review(onUser.id, { status: 'reviewed' })).statusCode, 200)
    const reviewed = await list('status=reviewed&type=user')
    t.same(reviewed.reports.map((r: { id: string }) => r.id), [onUser.id], 'status filter')
    t.notOk((await list('status=pending')).reports.some((r: { id: string }) => r.id === onUser.id))

    const page = await list('limit=2&page=2')
    t.match(page.pagination, { page: 2, limit: 2, hasPrev: true })
    expectValidationError(t, await app.inject({ url: '/api/admin/reports?status=open', headers: asAdmin }), 'status')
    expectValidationError(t, await app.inject({ url: '/api/admin/reports?type=tag', headers: asAdmin }), 'type')
  })

  t.test('review without action: reviewer, time and resolution recorded; repeatable', async t => {
    const reporter = await registerUser(app)
    const author = await registerUser(app)
    const recipe = await createRecipe(app, author)
    const report = await fileReport(reporter, 'recipe', recipe.id)
    const res = await review(report.id, { status: 'reviewed', resolution: '  Looked at it  ' })
    t.equal(res.statusCode, 200)
    const reviewed = json(res).report
    t.match(reviewed, { id: report.id, status: 'reviewed', resolution: 'Looked at it', action: null, reviewedBy: { id: admin.id, username: admin.username } })
    t.ok(Date.parse(reviewed.reviewedAt) <= Date.now())
    const again = json(await review(report.id, { status: 'reviewed' })).report
    t.match(again, { resolution: 'Looked at it', reviewedAt: reviewed.reviewedAt }, 'an omitted resolution is kept; nothing changed')
    const resolved = json(await review(report.id, { status: 'resolved', action: 'none' })).report
    t.match(resolved, { status: 'resolved', action: 'none', resolution: 'Looked at it' })
    t.equal((await recipeAs(recipe.id, null)).statusCode, 200, '`none` leaves the recipe alone')
  })

  t.test('recipe actions hide the recipe from everyone but its author', async t => {
    const reporter = await registerUser(app)
    const author = await registerUser(app)
    for (const [action, state] of [['reject_recipe', 'rejected'], ['flag_recipe', 'flagged']] as const) {
      const recipe = await createRecipe(app, author, { title: `To ${action}` })
      const report = await fileReport(reporter, 'recipe', recipe.id)
      const res = await review(report.id, { status: 'resolved', action, resolution: 'Copied from a book' })
      t.equal(res.statusCode, 200, action)
      t.match(json(res).report, { status: 'resolved', action, target: { state } })
      t.equal((await recipeAs(recipe.id, reporter)).statusCode, 404, `${action}: hidden from others`)
      t.equal((await recipeAs(recipe.id, null)).statusCode, 404, `${action}: hidden from anonymous`)
      t.equal((await recipeAs(recipe.id, author)).statusCode, 200, `${action}: the author still sees it`)
      const queue = json(await app.inject({ url: `/api/admin/recipes?moderationStatus=${state}&authorId=${author.id}`, headers: asAdmin }))
      t.match(queue.recipes, [{ id: recipe.id, moderationNote: 'Copied from a book' }], 'the resolution becomes the moderation note')
    }
  })

  t.test('delete_comment deletes the thread through the comment rules: counters stay exact', async t => {
    const reporter = await registerUser(app)
    const author = await registerUser(app)
    const recipe = await createRecipe(app, author)
    const bad = await comment(reporter, recipe.id, 'Spam spam spam')
    await comment(author, recipe.id, 'Please stop', bad.id)
    await comment(reporter, recipe.id, 'Never', bad.id)
    const kept = await comment(author, recipe.id, 'A fine comment')
    const other = await comment(author, recipe.id, 'Another one to delete')
    t.equal(await commentCount(recipe.id, author), 5)

    const report = await fileReport(author, 'comment', bad.id)
    const res = await review(report.id, { status: 'resolved', action: 'delete_comment' })
    t.equal(res.statusCode, 200)
    t.match(json(res).report, { action: 'delete_comment', status: 'resolved', target: null })
    t.equal(await commentCount(recipe.id, author), 2, 'the comment and its two replies went, and the counter with them')
    const thread = json(await app.inject({ url: `/api/comments/recipe/${recipe.id}` })).comments.map((c: { id: string }) => c.id)
    t.same(thread.sort(), [kept.id, other.id].sort())

    const repeated = await review(report.id, { status: 'resolved', action: 'delete_comment' })
    t.equal(repeated.statusCode, 200, 'repeating the review is fine')
    t.equal(await commentCount(recipe.id, author), 2, 'and deletes nothing more')

    const second = await fileReport(reporter, 'comment', other.id)
    const answers = await Promise.all(Array.from({ length: 5 }, async () => await review(second.id, { status: 'resolved', action: 'delete_comment' })))
    t.same(answers.map(r => r.statusCode), [200, 200, 200, 200, 200], 'concurrent identical reviews all succeed')
    t.equal(await commentCount(recipe.id, author), 1, 'the counter moved once')
    const reviewedAt = new Set(answers.map(r => json(r).report.reviewedAt))
    t.equal(reviewedAt.size, 1, 'one review recorded')
  })

  t.test('user actions: ban and deactivate take effect at once', async t => {
    const reporter = await registerUser(app)
    const spammer = await registerUser(app)
    const draft = await createRecipe(app, spammer, { visibility: 'private' })
    t.equal(await me(spammer), 200)
    t.equal((await recipeAs(draft.id, spammer)).statusCode, 200, 'optional route before (auth state cached)')
    const report = await fileReport(reporter, 'user', spammer.id, 'Spam')
    const answers = await Promise.all(Array.from({ length: 3 }, async () => await review(report.id, { status: 'resolved', action: 'ban_user', resolution: 'Spam account' })))
    t.same(answers.map(r => r.statusCode), [200, 200, 200])
    t.match(json(answers[0]).report, { action: 'ban_user', target: { state: 'banned' } })
    t.equal(await me(spammer), 401, 'strict route refuses the token at once')
    t.equal((await recipeAs(draft.id, spammer)).statusCode, 404, 'optional route treats them as anonymous')
    const account = json(await app.inject({ url: `/api/admin/users/${spammer.id}`, headers: asAdmin })).user
    t.match(account, { status: 'banned', banReason: 'Spam account', _count: { openReports: 0 } })

    const troll = await registerUser(app)
    const another = await fileReport(reporter, 'user', troll.id)
    const res = await review(another.id, { status: 'resolved', action: 'deactivate_user' })
    t.equal(res.statusCode, 200)
    t.match(json(res).report.target, { state: 'deactivated' })
    t.equal(await me(troll), 401, 'deactivated: token refused')
  })

  t.test('an action for another target type is 400 and changes nothing', async t => {
    const reporter = await registerUser(app)
    const author = await registerUser(app)
    const recipe = await createRecipe(app, author)
    const remark = await comment(author, recipe.id, 'Hello')
    const cases: Array<[type: 'recipe' | 'comment' | 'user', id: string, actions: string[]]> = [
      ['recipe', recipe.id, ['delete_comment', 'ban_user', 'deactivate_user']],
      ['comment', remark.id, ['reject_recipe', 'flag_recipe', 'ban_user']],
      ['user', author.id, ['delete_comment', 'reject_recipe']]
    ]
    for (const [type, id, actions] of cases) {
      const report = await fileReport(reporter, type, id)
      for (const action of actions) {
        const res = await review(report.id, { status: 'resolved', action })
        t.equal(res.statusCode, 400, `${action} on a ${type}`)
        t.same(json(res), { error: 'This action does not apply to the reported item' })
      }
      const listed = (await list(`type=${type}`)).reports.find((r: { id: string }) => r.id === report.id)
      t.match(listed, { status: 'pending', action: null, reviewedAt: null }, `${type} report unchanged`)
    }
    t.equal((await recipeAs(recipe.id, null)).statusCode, 200, 'recipe untouched')
    t.equal(await commentCount(recipe.id, author), 1, 'comment untouched')
    t.equal(await me(author), 200, 'user untouched')
  })

  t.test('unknown ids, gone targets, invalid bodies, reopening conflicts', async t => {
    const unknown = await review(UNKNOWN_ID, { status: 'resolved' })
    t.equal(unknown.statusCode, 404)
    t.same(json(unknown), { error: 'Report not found' })
    t.equal((await review('bad-id', { status: 'resolved', action: 'none' })).statusCode, 404, 'malformed id: 404')

    const reporter = await registerUser(app)
    const author = await registerUser(app)
    const recipe = await createRecipe(app, author)
    const remark = await comment(author, recipe.id, 'Soon gone')
    const report = await fileReport(reporter, 'comment', remark.id)
    t.equal((await app.inject({ method: 'DELETE', url: `/api/comments/${remark.id}`, headers: bearer(author) })).statusCode, 200)
    const gone = await review(report.id, { status: 'resolved', action: 'delete_comment' })
    t.equal(gone.statusCode, 404, 'acting on a target that is gone')
    t.same(json(gone), { error: 'Reported item not found' })
    const closed = await review(report.id, { status: 'resolved', action: 'none', resolution: 'Already deleted by its author' })
    t.equal(closed.statusCode, 200)
    t.match(json(closed).report, { status: 'resolved', action: 'none', target: null })

    expectValidationError(t, await review(report.id, { status: 'pending' }), 'status')
    expectValidationError(t, await review(report.id, {}), 'status')
    expectValidationError(t, await review(report.id, { status: 'resolved', action: 'explode' }), 'action')
    expectValidationError(t, await review(report.id, { status: 'resolved', resolution: 'x'.repeat(2001) }), 'resolution')

    const first = await fileReport(reporter, 'user', author.id)
    t.equal((await review(first.id, { status: 'resolved' })).statusCode, 200)
    await fileReport(reporter, 'user', author.id, 'Again')
    const reopen = await review(first.id, { status: 'reviewed' })
    t.equal(reopen.statusCode, 409, 'reopening while the reporter has a newer open report')
    t.match((await list('type=user&status=resolved')).reports.find((r: { id: string }) => r.id === first.id), { status: 'resolved' })
  })
})
