// GET /api/admin/analytics and GET /api/analytics: one report, admin only, numbers that match the data.
// One database per test file: the first test makes all the data it counts.
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { previousPeriod } from '../../../../plugins/app/services/analytics.js'
import { usagePeriod } from '../../../../plugins/app/services/plans.js'
import {
  adminBearer, bearer, build, createAdmin, createRecipe, eventually, follow, json, registerUser, setAccountStatus, type TestUser
} from '../../../helper.js'

const PATHS = ['/api/admin/analytics', '/api/analytics']

async function ok (app: FastifyInstance, method: 'POST', url: string, user: TestUser, payload?: Record<string, unknown>): Promise<void> {
  const res = await app.inject({ method, url, headers: bearer(user), ...(payload != null && { payload }) })
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
}

/** The start of the report's first day (UTC) plus `minutes`, as SQL sees it. */
const inFirstDay = (app: FastifyInstance, minutes: number) =>
  app.db`((current_date - 29)::timestamp at time zone 'UTC') + make_interval(mins => ${minutes})`

/** `days` ago from today's UTC date, as YYYY-MM-DD. */
function daysAgo (today: string, days: number): string {
  const d = new Date(`${today}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() - days)
  return d.toISOString().slice(0, 10)
}

t.test('the numbers match the data', async t => {
  const app = await build(t)
  const admin = adminBearer(await createAdmin(app))
  const [ann, bob, cat, dan, eve] = await Promise.all([0, 1, 2, 3, 4].map(async () => await registerUser(app)))

  // Recipes: 4 listed, a private one, a draft, a flagged one.
  const r1 = await createRecipe(app, ann, { title: 'One' })
  const r2 = await createRecipe(app, ann, { title: 'Two' })
  const r3 = await createRecipe(app, ann, { title: 'Three' })
  const r4 = await createRecipe(app, bob, { title: 'Four' })
  await createRecipe(app, bob, { title: 'Private', visibility: 'private' })
  await createRecipe(app, bob, { title: 'Draft', published: false })
  const r7 = await createRecipe(app, cat, { title: 'Flagged' })

  // Likes: r1 3, r4 2, r2 2 (older than r4: after it), r3 1.
  for (const [user, recipe] of [[bob, r1], [cat, r1], [dan, r1], [ann, r4], [cat, r4], [bob, r2], [cat, r2], [bob, r3]] as const) {
    await ok(app, 'POST', `/api/social/recipes/${recipe.id}/like`, user)
  }
  await ok(app, 'POST', `/api/social/recipes/${r4.id}/comments`, ann, { content: 'Lovely' })
  await ok(app, 'POST', `/api/social/recipes/${r1.id}/comments`, bob, { content: 'Great' })
  await ok(app, 'POST', `/api/social/recipes/${r1.id}/comments`, bob, { content: 'Made it again' })
  await ok(app, 'POST', `/api/ratings/recipes/${r1.id}`, cat, { rating: 5 })
  await ok(app, 'POST', `/api/ratings/recipes/${r1.id}`, dan, { rating: 4 })
  await ok(app, 'POST', `/api/ratings/recipes/${r2.id}`, bob, { rating: 3 })
  await follow(app, bob, ann)
  await follow(app, cat, ann)
  await follow(app, ann, bob)
  await ok(app, 'POST', `/api/bookmarks/${r1.id}`, cat)
  await ok(app, 'POST', `/api/bookmarks/${r4.id}`, bob)
  // Plan allowances: this month 2 imports (ann) and 1 AI generation (bob); last month 4 imports (cat).
  await app.transaction(async tx => {
    await app.planService.spend(tx, ann.id, 'imports')
    await app.planService.spend(tx, ann.id, 'imports')
    await app.planService.spend(tx, bob.id, 'aiGenerations')
  })
  const now = new Date()
  await app.db`insert into usage (user_id, kind, period, count) values (${cat.id}, 'imports', ${previousPeriod(now)}, 4)`

  // No API moves time: dates set in the table. Users: cat 5 days ago, dan in the first day of the window, eve just before it.
  await app.db`update users set created_at = now() - interval '5 days' where id = ${cat.id}`
  await app.db`update users set created_at = ${inFirstDay(app, 1)} where id = ${dan.id}`
  await app.db`update users set created_at = ${inFirstDay(app, -1)} where id = ${eve.id}`
  await app.db`update users set last_login_at = now() - interval '1 hour' where id = ${ann.id}`
  await app.db`update users set last_login_at = now() - interval '3 days' where id = ${bob.id}`
  await app.db`update users set last_login_at = now() - interval '20 days' where id = ${cat.id}`
  await app.db`update users set last_login_at = now() - interval '40 days' where id = ${dan.id}`
  await app.db`update users set last_login_at = null where id = ${eve.id}`
  // Recipes: r2 two days ago, r3 before the window; r7 hidden by moderation.
  await app.db`update recipes set created_at = now() - interval '2 days' where id = ${r2.id}`
  await app.db`update recipes set created_at = ${inFirstDay(app, -1)} where id = ${r3.id}`
  await app.db`update recipes set moderation_status = 'flagged' where id = ${r7.id}`
  // One of each kind of engagement from before the window.
  await app.db`update likes set created_at = now() - interval '40 days' where user_id = ${bob.id} and recipe_id = ${r3.id}`
  await app.db`update comments set created_at = now() - interval '35 days' where content = 'Lovely'`
  await app.db`update ratings set created_at = now() - interval '31 days' where user_id = ${bob.id}`
  await app.db`update follows set created_at = now() - interval '60 days' where follower_id = ${ann.id}`
  await setAccountStatus(app, dan, { banned: true })
  await setAccountStatus(app, eve, { active: false })

  const [first, second] = await Promise.all(PATHS.map(async url => await app.inject({ url, headers: admin })))
  t.equal(first.statusCode, 200)
  t.equal(second.statusCode, 200)
  t.same(json(second), json(first), 'both paths answer the same report')
  const report = json(first)

  t.ok(Math.abs(Date.parse(report.generatedAt) - Date.now()) < 60_000, 'generatedAt is now')
  const today = report.period.to
  t.equal(today, new Date().toISOString().slice(0, 10), 'the window ends today (UTC)')
  t.same(report.period, { days: 30, from: daysAgo(today, 29), to: today })
  t.same(report.totals, {
    users: 5,
    activeAccounts: 3,
    bannedAccounts: 1,
    recipes: 7,
    publishedRecipes: 6,
    publicRecipes: 4,
    comments: 3,
    likes: 8,
    ratings: 3,
    follows: 3,
    bookmarks: 2
  })
  t.equal(report.daily.length, 30)
  t.same(report.daily.map((d: { date: string }) => d.date), Array.from({ length: 30 }, (_, i) => daysAgo(today, 29 - i)), 'every day, oldest first')
  const nonZero = report.daily.filter((d: { newUsers: number, newRecipes: number }) => d.newUsers + d.newRecipes > 0)
  t.same(nonZero, [
    { date: daysAgo(today, 29), newUsers: 1, newRecipes: 0 },
    { date: daysAgo(today, 5), newUsers: 1, newRecipes: 0 },
    { date: daysAgo(today, 2), newUsers: 0, newRecipes: 1 },
    { date: today, newUsers: 2, newRecipes: 5 }
  ], 'per-day buckets, zero elsewhere; eve and r3 are from before the window')
  t.same(report.activeUsers, { last1Day: 1, last7Days: 2, last30Days: 3 })
  t.same(report.engagement, { likes: 7, comments: 2, ratings: 2, follows: 2, bookmarks: 2 })

  t.same(report.topRecipes.map((r: { id: string }) => r.id), [r1.id, r4.id, r2.id, r3.id], 'by likes, ties newest first, listed only')
  t.match(report.topRecipes[0], { title: 'One', slug: r1.slug, likeCount: 3, commentCount: 2, ratingCount: 2, averageRating: 4.5, author: { id: ann.id, username: ann.username } })
  t.match(report.topRecipes[3], { id: r3.id, likeCount: 1, commentCount: 0, ratingCount: 0, averageRating: 0 })

  t.same(report.usage, {
    thisMonth: { period: usagePeriod(now), imports: { count: 2, users: 1 }, aiGenerations: { count: 1, users: 1 } },
    lastMonth: { period: previousPeriod(now), imports: { count: 4, users: 1 }, aiGenerations: { count: 0, users: 0 } }
  })

  // Cached: a new recipe shows once the report is computed again.
  await createRecipe(app, ann, { title: 'Later' })
  const cached = json(await app.inject({ url: '/api/analytics', headers: admin }))
  t.same(cached, report, 'served from the cache')
  const fresh = await app.analyticsService.compute()
  t.equal(fresh.totals.recipes, 8)
  t.equal(fresh.daily[29].newRecipes, 6)
})

t.test('a window without any new user or recipe: 30 days of zeros', async t => {
  const app = await build(t)
  await app.db`update users set created_at = now() - interval '100 days'`
  await app.db`update recipes set created_at = now() - interval '100 days'`
  const report = await app.analyticsService.compute()
  t.equal(report.daily.length, 30)
  t.ok(report.daily.every((d: { newUsers: number, newRecipes: number }) => d.newUsers === 0 && d.newRecipes === 0), 'all zeros')
  t.equal(report.topRecipes.length, 5, 'the top list holds the listed recipes there are (fewer than 10)')
  t.equal(report.totals.recipes, 8)
})

t.test('admin only on both paths; /api/analytics/config stays public; every call audited', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  for (const url of PATHS) {
    for (const headers of [{}, { authorization: 'Bearer nonsense' }, bearer(user)]) {
      const res = await app.inject({ url, headers })
      t.equal(res.statusCode, 401, `${url} with ${JSON.stringify(headers).slice(0, 30)}`)
      t.match(json(res).error, /Admin authentication required|Invalid or expired admin session/)
    }
  }
  const config = await app.inject('/api/analytics/config')
  t.equal(config.statusCode, 200, 'the client settings are public')
  t.equal(json(config).enabled, false)

  const adminAccount = await createAdmin(app)
  const admin = adminBearer(adminAccount)
  t.equal((await app.inject({ url: '/api/analytics', headers: admin })).statusCode, 200)
  const audited = await eventually(async () => {
    const logs = json(await app.inject({ url: '/api/admin/audit-logs?action=analytics.get', headers: admin })).auditLogs
    return logs[0]?.adminId === adminAccount.id && logs
  })
  t.same(audited.slice(0, 4).map((e: { status: number, adminId: string | null, path: string }) => [e.status, e.adminId, e.path]),
    [[200, adminAccount.id, '/api/analytics'], [401, null, '/api/analytics'], [401, null, '/api/analytics'], [401, null, '/api/analytics']],
    'GET /api/analytics is audited like the admin routes, refusals included')

  const doc = json(await app.inject('/api/docs/json'))
  for (const path of PATHS) {
    const op = doc.paths[path].get
    t.same(op.security, [{ adminBearerAuth: [] }], `${path} documents the admin token`)
    t.ok(op.responses['401'], `${path} documents 401`)
  }
  t.equal(doc.paths['/api/analytics'].get.operationId, 'analytics.get')
  t.equal(doc.paths['/api/admin/analytics'].get.operationId, 'admin.analytics.get')
})
