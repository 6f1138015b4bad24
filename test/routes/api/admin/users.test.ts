import t from 'tap'
import {
  adminBearer, bearer, build, createAdmin, createRecipe, expectValidationError, follow, json, login, registerUser, type TestUser
} from '../../../helper.js'

const UNKNOWN_ID = 'zz0000000000000000000000'

t.test('admin users', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const asAdmin = adminBearer(admin)
  const detail = async (userId: string) => {
    const res = await app.inject({ url: `/api/admin/users/${userId}`, headers: asAdmin })
    t.equal(res.statusCode, 200, 'detail answers')
    return json(res).user
  }
  const call = async (method: 'GET' | 'PATCH' | 'POST', url: string, payload?: Record<string, unknown>) =>
    await app.inject({ method, url: `/api/admin/users${url}`, headers: asAdmin, ...(payload != null && { payload }) })
  const me = async (user: TestUser) => (await app.inject({ url: '/api/auth/me', headers: bearer(user) })).statusCode
  const seesOwnRecipe = async (user: TestUser, recipeId: string) =>
    (await app.inject({ url: `/api/recipes/${recipeId}`, headers: bearer(user) })).statusCode

  t.test('no token and a user token get 401 on every route, and change nothing', async t => {
    const user = await registerUser(app)
    const routes: Array<[method: 'GET' | 'PATCH' | 'POST', url: string, payload?: Record<string, unknown>]> = [
      ['GET', '/api/admin/users'],
      ['GET', `/api/admin/users/${user.id}`],
      ['PATCH', `/api/admin/users/${user.id}`, { verified: true, active: false }],
      ['POST', `/api/admin/users/${user.id}/ban`, { reason: 'spam' }],
      ['POST', `/api/admin/users/${user.id}/unban`],
      ['POST', `/api/admin/users/${user.id}/unlock`]
    ]
    for (const [method, url, payload] of routes) {
      for (const [who, headers] of [['no token', {}], ['user token', bearer(user)]] as const) {
        const res = await app.inject({ method, url, headers, ...(payload != null && { payload }) })
        t.equal(res.statusCode, 401, `${who}: ${method} ${url}`)
      }
    }
    const after = await detail(user.id)
    t.match(after, { verified: false, active: true, bannedAt: null, status: 'active' }, 'nothing changed')
    t.equal(await me(user), 200, 'the user still signs in')
  })

  t.test('list: search, filters, newest first, capped pagination', async t => {
    const prefix = `lst${process.pid}`
    const [first, second, third] = [
      await registerUser(app, { username: `${prefix}a` }),
      await registerUser(app, { username: `${prefix}b`, email: `${prefix}-mail-b@example.org` }),
      await registerUser(app, { username: `${prefix}c` })
    ]
    const list = async (query: string) => {
      const res = await call('GET', `?${query}`)
      t.equal(res.statusCode, 200, query)
      return json(res)
    }

    const all = await list(`q=${prefix.toUpperCase()}`)
    t.same(all.users.map((u: { id: string }) => u.id), [third.id, second.id, first.id], 'q is case-insensitive; newest first')
    t.match(all.users[0], { username: third.username, email: third.email, status: 'active', active: true, verified: false, planId: 'free', lockedUntil: null })
    t.match(all.pagination, { page: 1, total: 3, hasNext: false, totalExact: true })
    t.same((await list(`q=${prefix}-mail-b@example`)).users.map((u: { id: string }) => u.id), [second.id], 'q matches the email')
    t.same((await list('q=%25')).users.filter((u: { username: string }) => u.username.startsWith(prefix)), [], 'LIKE wildcards are literal')

    const page = await list(`q=${prefix}&limit=2&page=1`)
    t.equal(page.users.length, 2)
    t.match(page.pagination, { page: 1, limit: 2, total: 3, totalPages: 2, hasNext: true, hasPrev: false, totalExact: true })
    const next = await list(`q=${prefix}&limit=2&page=2`)
    t.same(next.users.map((u: { id: string }) => u.id), [first.id])
    t.match(next.pagination, { hasNext: false, hasPrev: true })

    t.equal((await call('PATCH', `/${first.id}`, { verified: true, planId: 'premium' })).statusCode, 200)
    t.equal((await call('POST', `/${second.id}/ban`, { reason: 'spam' })).statusCode, 200)
    t.equal((await call('PATCH', `/${third.id}`, { active: false })).statusCode, 200)
    const ids = async (query: string) => (await list(`q=${prefix}&${query}`)).users.map((u: { id: string }) => u.id)
    t.same(await ids('verified=true'), [first.id], 'verified filter')
    t.same(await ids('verified=false'), [third.id, second.id])
    t.same(await ids('planId=premium'), [first.id], 'plan filter')
    t.same(await ids('status=banned'), [second.id], 'banned')
    t.same(await ids('status=deactivated'), [third.id], 'deactivated')
    t.same(await ids('status=active'), [first.id], 'active')
    t.same(await ids('status=locked'), [], 'nobody locked')
    t.same(await ids('status=active&planId=free'), [], 'filters combine')

    expectValidationError(t, await call('GET', '?status=sleeping'), 'status')
    expectValidationError(t, await call('GET', `?q=${'x'.repeat(101)}`), 'q')
    expectValidationError(t, await call('GET', '?limit=51'), 'limit')
  })

  t.test('detail: account state and counts; unknown ids 404', async t => {
    const user = await registerUser(app)
    const other = await registerUser(app)
    const reporter = await registerUser(app)
    const recipe = await createRecipe(app, user, { title: 'Counted' })
    await createRecipe(app, user, { title: 'Private one', visibility: 'private' })
    await follow(app, other, user)
    await follow(app, user, other)
    const comment = await app.inject({ method: 'POST', url: `/api/comments/recipe/${String(recipe.id)}`, headers: bearer(user), payload: { content: 'Mine' } })
    t.equal(comment.statusCode, 201)
    const report = await app.inject({ method: 'POST', url: '/api/reports', headers: bearer(reporter), payload: { type: 'user', targetId: user.id, reason: 'rude' } })
    t.equal(report.statusCode, 201)

    const found = await detail(user.id)
    t.match(found, {
      id: user.id,
      email: user.email,
      username: user.username,
      status: 'active',
      active: true,
      verified: false,
      planId: 'free',
      bannedAt: null,
      banReason: null,
      lockedUntil: null,
      failedLoginAttempts: 0,
      _count: { recipes: 2, followers: 1, following: 1, comments: 1, openReports: 1 }
    })
    t.ok(!Number.isNaN(Date.parse(found.createdAt)), 'createdAt is a timestamp')
    t.notOk('password' in found, 'no password hash')

    for (const method of ['GET', 'PATCH'] as const) {
      const res = await call(method, `/${UNKNOWN_ID}`, method === 'PATCH' ? { verified: true } : undefined)
      t.equal(res.statusCode, 404, `${method} unknown user`)
      t.same(json(res), { error: 'User not found' })
    }
    for (const action of ['ban', 'unban', 'unlock']) {
      const res = await call('POST', `/${UNKNOWN_ID}/${action}`, action === 'ban' ? { reason: 'x' } : undefined)
      t.equal(res.statusCode, 404, `${action} unknown user`)
    }
  })

  t.test('PATCH: verified and plan, validated, repeatable, exact under concurrency', async t => {
    const user = await registerUser(app)
    const res = await call('PATCH', `/${user.id}`, { verified: true, planId: 'premium' })
    t.equal(res.statusCode, 200)
    t.match(json(res).user, { id: user.id, verified: true, planId: 'premium', active: true })
    const profile = json(await app.inject({ url: `/api/users/${user.username}` }))
    t.equal(profile.user.verified, true, 'the public profile shows the badge')
    const subscription = json(await app.inject({ url: '/api/subscriptions/me', headers: bearer(user) }))
    t.equal(subscription.plan.id, 'premium', 'the user is on the new plan')
    t.equal(subscription.subscription.planId, 'premium')

    const unknownPlan = await call('PATCH', `/${user.id}`, { planId: 'platinum', verified: false })
    t.equal(unknownPlan.statusCode, 400, 'unknown plan')
    t.match(json(unknownPlan), { error: /plan/i })
    t.match(await detail(user.id), { planId: 'premium', verified: true }, 'nothing of the refused request was applied')
    expectValidationError(t, await call('PATCH', `/${user.id}`, { planId: 'x'.repeat(51) }), 'planId')
    expectValidationError(t, await call('PATCH', `/${user.id}`, { verified: 'yes' }), 'verified')

    const answers = await Promise.all(Array.from({ length: 6 }, async () => await call('PATCH', `/${user.id}`, { planId: 'family', verified: false })))
    t.same(answers.map(r => r.statusCode), [200, 200, 200, 200, 200, 200], 'concurrent identical requests all succeed')
    for (const answer of answers) t.match(json(answer).user, { planId: 'family', verified: false })
    const after = json(await app.inject({ url: '/api/subscriptions/me', headers: bearer(user) }))
    t.equal(after.plan.id, 'family', 'one consistent plan')

    const same = await call('PATCH', `/${user.id}`, {})
    t.equal(same.statusCode, 200, 'an empty change answers the account')
    t.match(json(same).user, { planId: 'family', verified: false })
  })

  t.test('deactivating stops the user\'s tokens at once; reactivating restores them', async t => {
    const user = await registerUser(app)
    const draft = await createRecipe(app, user, { title: 'Only mine', visibility: 'private' })
    t.equal(await me(user), 200, 'works before')
    t.equal(await seesOwnRecipe(user, draft.id), 200, 'optional route: the author sees their private recipe (auth state now cached)')

    const res = await call('PATCH', `/${user.id}`, { active: false })
    t.equal(res.statusCode, 200)
    t.match(json(res).user, { active: false, status: 'deactivated' })
    t.equal(await me(user), 401, 'strict route: token refused')
    t.equal(await seesOwnRecipe(user, draft.id), 404, 'optional route: treated as anonymous')
    t.equal((await login(app, user.username, user.password)).statusCode, 403, 'cannot sign in')

    t.equal((await call('PATCH', `/${user.id}`, { active: true })).statusCode, 200)
    t.equal(await me(user), 200, 'the token works again')
    t.equal(await seesOwnRecipe(user, draft.id), 200)
    t.equal((await login(app, user.username, user.password)).statusCode, 200)
  })

  t.test('ban: immediate on strict and optional routes; unban restores; concurrent bans agree', async t => {
    const user = await registerUser(app)
    const draft = await createRecipe(app, user, { title: 'Banned author draft', visibility: 'private' })
    t.equal(await me(user), 200, 'works before')
    t.equal(await seesOwnRecipe(user, draft.id), 200, 'optional route before')

    const bans = await Promise.all(Array.from({ length: 5 }, async () => await call('POST', `/${user.id}/ban`, { reason: 'Spam links' })))
    t.same(bans.map(r => r.statusCode), [200, 200, 200, 200, 200])
    const bannedAt = new Set(bans.map(r => json(r).user.bannedAt))
    t.equal(bannedAt.size, 1, 'every answer shows the same ban')
    const banned = await detail(user.id)
    t.match(banned, { status: 'banned', banReason: 'Spam links', bannedAt: [...bannedAt][0] })
    t.equal(await me(user), 401, 'strict route: token refused at once')
    t.equal(await seesOwnRecipe(user, draft.id), 404, 'optional route: anonymous at once')
    t.equal((await login(app, user.username, user.password)).statusCode, 403, 'cannot sign in')
    t.equal((await app.inject({ url: `/api/users/${user.username}` })).statusCode, 404, 'profile hidden')

    const again = json(await call('POST', `/${user.id}/ban`, { reason: 'Still spam' })).user
    t.equal(again.bannedAt, banned.bannedAt, 'banning again keeps the first time')
    t.equal(again.banReason, 'Still spam', 'and takes the new reason')

    expectValidationError(t, await call('POST', `/${user.id}/ban`, {}), 'reason')
    expectValidationError(t, await call('POST', `/${user.id}/ban`, { reason: '   ' }), 'reason')
    expectValidationError(t, await call('POST', `/${user.id}/ban`, { reason: 'x'.repeat(501) }), 'reason')

    const unbans = await Promise.all([call('POST', `/${user.id}/unban`), call('POST', `/${user.id}/unban`)])
    t.same(unbans.map(r => r.statusCode), [200, 200])
    t.match(await detail(user.id), { status: 'active', bannedAt: null, banReason: null })
    t.equal(await me(user), 200, 'the token works again')
    t.equal(await seesOwnRecipe(user, draft.id), 200)
    t.equal((await login(app, user.username, user.password)).statusCode, 200, 'signs in again')
  })

  t.test('unlock lets a locked user sign in at once', async t => {
    const user = await registerUser(app)
    for (let i = 0; i < 5; i++) t.equal((await login(app, user.username, 'Wrong-passw0rd')).statusCode, 401, `wrong password ${i + 1}`)
    t.equal((await login(app, user.username, user.password)).statusCode, 423, 'locked, even with the right password')

    const locked = await detail(user.id)
    t.match(locked, { status: 'locked', failedLoginAttempts: 5 })
    t.ok(Date.parse(locked.lockedUntil) > Date.now(), 'lockedUntil is ahead')
    const listed = json(await call('GET', `?status=locked&q=${user.username}`)).users
    t.same(listed.map((u: { id: string }) => u.id), [user.id], 'listed as locked')

    const res = await call('POST', `/${user.id}/unlock`)
    t.equal(res.statusCode, 200)
    t.match(json(res).user, { status: 'active', lockedUntil: null, failedLoginAttempts: 0 })
    t.equal((await login(app, user.username, user.password)).statusCode, 200, 'signs in')
    t.equal((await call('POST', `/${user.id}/unlock`)).statusCode, 200, 'unlocking an unlocked account is fine')
  })
})
