// Deletion leaves no trace (decisions.md, Compliance): a user who touched every family is deleted, then every column of
// every table of the public schema is searched for their id, email and username, a marker written into all their
// texts, and the ids of their content. The tables and columns come from information_schema, so a new table is searched
// without changing this file. A bystander's own data must stay.
import { randomBytes } from 'node:crypto'
import { createId } from '@paralleldrive/cuid2'
import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { createFamily, joinFamily } from '../../../helpers/families.js'
import { addItem, createList } from '../../../helpers/grocery.js'
import { createMealPlan, planMeal, shareMealPlan } from '../../../helpers/meal-plans.js'
import { pushServer } from '../../../helpers/push.js'
import { smtpServer } from '../../../helpers/smtp.js'
import {
  bearer, build, createRecipe, drainJobs, eventually, fileForm, follow, json, pngImage, registerUser, type TestUser
} from '../../../helper.js'

type Row = Record<string, unknown>
interface Trace { table: string, columns: string[], row: Row }

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`

/** Every row of every base table of `public` with a column whose text holds one of `needles` (case-insensitive). */
async function traces (app: FastifyInstance, needles: string[]): Promise<Trace[]> {
  const columns = await app.db<Array<{ tableName: string, columnName: string }>>`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`
  const tables = new Map<string, string[]>()
  for (const { tableName, columnName } of columns) tables.set(tableName, [...(tables.get(tableName) ?? []), columnName])
  const found: Trace[] = []
  for (const [table, names] of tables) {
    // Every column as text, whatever its type (text, jsonb, arrays, ...): a number or a date simply never matches.
    const hit = (name: string) => `case when exists (select from unnest($1::text[]) n where strpos(lower(t.${quoted(name)}::text), n) > 0) then '${name.replaceAll("'", "''")}' end`
    const rows = await app.db.unsafe<Array<{ row: string, hits: string[] }>>(
      `select row, hits from (select to_jsonb(t)::text as row, array_remove(array[${names.map(hit).join(', ')}]::text[], null) as hits
        from public.${quoted(table)} t) s where cardinality(hits) > 0`,
      [needles.map(n => n.toLowerCase())])
    for (const { row, hits } of rows) found.push({ table, columns: hits, row: JSON.parse(row) as Row })
  }
  return found
}

const describe = (trace: Trace) => `${trace.table} (${trace.columns.join(', ')}): ${JSON.stringify(trace.row).slice(0, 300)}`

async function call (app: FastifyInstance, user: TestUser | null, method: 'POST' | 'PUT', url: string, payload?: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await app.inject({ method, url, headers: user == null ? {} : bearer(user), ...(payload !== undefined && { payload }) })
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
  return json(res)
}

interface World {
  victim: TestUser
  bystander: TestUser
  other: TestUser
  marker: string
  /** Ids of rows that are the victim's content (or about them): none may be referenced afterwards. */
  contentIds: string[]
  bystanderRecipe: Record<string, any>
  bystanderComment: Record<string, any>
  sharedFamily: { id: string }
  invitee: string
}

/**
 * The victim touches every family, with `marker` in every text they write; the bystander and a third user act around
 * them, so mail, notifications and reports to and about the victim exist (delivered with SMTP, recorded without).
 */
async function touchEverything (t: Test, app: FastifyInstance): Promise<World> {
  const push = await pushServer(t, { publicKey: () => app.config.vapid.publicKey!, subject: () => app.config.vapid.subject })
  const tag = randomBytes(4).toString('hex')
  const marker = `zqmark${tag}`
  const victim = await registerUser(app, { username: `gone${tag}` })
  const bystander = await registerUser(app, { username: `stays${tag}` })
  const other = await registerUser(app, { username: `third${tag}` })
  const invitee = `invitee${tag}@example.com`
  for (const user of [victim, bystander, other]) {
    await call(app, user, 'PUT', '/api/users/notification-settings', { digestFrequency: 'daily' })
  }

  // Around the bystander's recipe: the victim comments, likes, rates, bookmarks, cooks, collects, reports it.
  const bystanderRecipe = await createRecipe(app, bystander, { title: 'Bystander bread' })
  await call(app, other, 'POST', `/api/social/recipes/${bystanderRecipe.id}/like`)
  const bystanderComment = (await call(app, bystander, 'POST', `/api/comments/recipe/${bystanderRecipe.id}`, { content: 'Bystander note' })).comment
  const victimComment = (await call(app, victim, 'POST', `/api/comments/recipe/${bystanderRecipe.id}`, { content: `${marker} lovely bread` })).comment
  await call(app, bystander, 'POST', `/api/comments/${victimComment.id}/reply`, { content: 'Thanks!' })
  await call(app, victim, 'POST', `/api/social/recipes/${bystanderRecipe.id}/like`)
  await call(app, victim, 'POST', `/api/ratings/recipes/${bystanderRecipe.id}`, { rating: 4 })
  await call(app, victim, 'POST', `/api/bookmarks/${bystanderRecipe.id}`)
  await call(app, victim, 'POST', `/api/cooking/recipes/${bystanderRecipe.id}/cooked`)
  const collection = (await call(app, victim, 'POST', '/api/collections', { name: `${marker} favourites` })).collection
  await call(app, victim, 'POST', `/api/collections/${collection.id}/recipes`, { recipeId: bystanderRecipe.id })
  const victimReport = (await call(app, victim, 'POST', '/api/reports', { type: 'recipe', targetId: bystanderRecipe.id, reason: 'spam', details: `${marker} report` })).report

  // Follows both ways, then the victim's recipes reach the bystander (new_recipe), who answers under them.
  await follow(app, victim, bystander)
  await follow(app, bystander, victim)
  const victimRecipe = await createRecipe(app, victim, { title: `${marker} stew`, tags: [`${marker}-tag`], visibility: 'public' })
  const audienceRecipe = await createRecipe(app, bystander, { title: 'For some eyes', visibility: 'custom', audienceUserIds: [victim.id] })
  const onVictimRecipe = (await call(app, bystander, 'POST', `/api/comments/recipe/${victimRecipe.id}`, { content: 'Looks good' })).comment
  await call(app, other, 'POST', `/api/comments/${onVictimRecipe.id}/reply`, { content: 'Agreed' }) // a reply to the bystander, on the victim's recipe
  await call(app, bystander, 'POST', `/api/social/recipes/${victimRecipe.id}/like`)
  await call(app, bystander, 'POST', `/api/ratings/recipes/${victimRecipe.id}`, { rating: 5 })
  const userReport = (await call(app, bystander, 'POST', '/api/reports', { type: 'user', targetId: victim.id, reason: 'rude' })).report
  const commentReport = (await call(app, bystander, 'POST', '/api/reports', { type: 'comment', targetId: victimComment.id, reason: 'mean' })).report
  const imported = await call(app, victim, 'POST', '/api/recipe-import/from-text', {
    text: `${marker} toast\n\nIngredients\n- 1 slice bread\n\nMethod\n1. Toast it.`
  })
  await eventually(async () => (await app.db`select 1 from import_logs where user_id = ${victim.id}`).length > 0)
  await app.db`insert into ai_generations (id, user_id, request, prompt, status, request_key)
    values (${createId()}, ${victim.id}, ${app.db.json({ prompt: `${marker} soup` })}, ${`${marker} soup`}, 'failed', ${`k-${tag}`})`
  const form = fileForm('image', await pngImage(), 'image/png')
  const upload = await app.inject({ method: 'POST', url: '/api/upload/image', headers: { ...bearer(victim), ...form.headers }, payload: form.payload })
  t.equal(upload.statusCode, 201, 'an upload')

  // Households: a family they share with the bystander (and invite an address to), one alone, the bystander's one they
  // join; a plan shared with the bystander, a meal in the bystander's plan, a grocery list.
  const sharedFamily = await createFamily(app, victim, { name: 'Shared kitchen' })
  await joinFamily(app, bystander, sharedFamily)
  await call(app, victim, 'POST', `/api/families/${sharedFamily.id}/invitations`, { email: invitee })
  await createFamily(app, victim, { name: 'Solo kitchen' })
  await joinFamily(app, victim, await createFamily(app, bystander, { name: 'Bystander home' }))
  const plan = await createMealPlan(app, victim, { name: `${marker} week` })
  const meal = await planMeal(app, victim, { mealPlanId: plan.id, date: '2026-03-02', customTitle: `${marker} dinner` })
  await shareMealPlan(app, victim, plan, [bystander], 'view')
  const bystanderPlan = await createMealPlan(app, bystander, { name: 'Bystander week' })
  await shareMealPlan(app, bystander, bystanderPlan, [victim], 'edit')
  const mealForBystander = await planMeal(app, victim, { mealPlanId: bystanderPlan.id, date: '2026-03-03', customTitle: `${marker} for you` })
  const list = await createList(app, victim, { name: `${marker} shop` })
  await addItem(app, victim, list, { name: `${marker} eggs` })

  // Settings, consent, a browser; support tickets and CCPA requests, signed in and sent anonymously with their address.
  await call(app, victim, 'PUT', '/api/gdpr/consent', { marketing: true, policyVersion: '2026-01' })
  await call(app, victim, 'PUT', '/api/push-notifications/preferences', { like: false })
  await call(app, victim, 'POST', '/api/push-notifications/subscribe', push.browser().subscription)
  const tickets = [
    (await call(app, victim, 'POST', '/api/support', { subject: `${marker} help`, message: 'It broke' })).ticketId,
    (await call(app, null, 'POST', '/api/support', { subject: 'A question', message: `${marker} anonymous`, email: victim.email, name: 'Gone Person' })).ticketId
  ]
  await call(app, bystander, 'POST', '/api/support', { subject: 'Bystander question', message: 'Hello' })
  const ccpa = [
    (await call(app, victim, 'POST', '/api/ccpa/consumer-request', { email: victim.email, name: `${marker} name`, details: `${marker} details` })).requestId,
    (await call(app, null, 'POST', '/api/ccpa/consumer-request', { email: victim.email, name: 'Gone Person', details: `${marker} anon`, requestType: 'access' })).requestId
  ]
  // Flags have their admin API; written here so no admin request (and its audit log line) is part of the picture.
  await app.db`insert into feature_flags (key, user_ids) values (${`beta-${tag}`}, ${app.db.json([victim.id, bystander.id])})`

  // Mail: instant notification emails, then a daily digest (the scheduler's clock moved two days on).
  await drainJobs(app)
  t.same(await app.digestService.runDue(new Date(Date.now() + 2 * 24 * 3600_000)).then(r => r.sent > 0), true, 'digests went out')
  await drainJobs(app)

  const mailToBystander = await app.db<Array<{ kind: string }>>`select kind from email_outbox
    where user_id = ${bystander.id} and (strpos(text, ${victim.username}) > 0 or strpos(text, ${marker}) > 0)`
  t.same([...new Set(mailToBystander.map(m => m.kind))].sort(), ['comment', 'digest', 'family_invite', 'follow', 'like', 'meal_plan_shared', 'new_recipe', 'reply'],
    'before: the bystander\'s mail quotes the victim in every kind')
  t.equal((await app.db`select 1 from email_outbox where "to" = ${invitee} and kind = 'family-invite'`).length, 1, 'before: their invitation to an address')
  t.ok((await app.db`select 1 from notifications where actor_id = ${victim.id}`).length >= 4, 'before: notifications to others with the victim as actor')

  return {
    victim,
    bystander,
    other,
    marker,
    contentIds: [victimRecipe.id, imported.recipe.id, victimComment.id, collection.id, plan.id, meal.id, mealForBystander.id, list.id,
      victimReport.id, userReport.id, commentReport.id, ...tickets, ...ccpa],
    bystanderRecipe: { ...bystanderRecipe, audienceRecipeId: audienceRecipe.id },
    bystanderComment,
    sharedFamily,
    invitee
  }
}

async function deleteAndWait (app: FastifyInstance, user: TestUser, deleteType: 'account' | 'data'): Promise<string> {
  const { requestId } = await call(app, user, 'POST', '/api/data-deletion', { deleteType })
  await eventually(async () => json(await app.inject(`/api/data-deletion/status/${requestId as string}`)).request?.status === 'completed', 30_000)
  await drainJobs(app)
  return requestId
}

/** What stays of the bystander, whichever deletion: their recipe, comment, ticket, mail from others. */
async function bystanderKept (t: Test, app: FastifyInstance, world: World): Promise<void> {
  const { bystander, other, bystanderRecipe, bystanderComment } = world
  const recipe = json(await app.inject({ url: `/api/recipes/${bystanderRecipe.id as string}`, headers: bearer(bystander) })).recipe
  t.match(recipe, { title: 'Bystander bread', likeCount: 1, ratingCount: 0, commentCount: 1 }, 'their recipe, counting only what is left')
  t.equal((await app.db`select 1 from comments where id = ${bystanderComment.id}`).length, 1, 'their comment')
  t.equal((await app.db`select 1 from support_tickets where user_id = ${bystander.id}`).length, 1, 'their ticket')
  t.equal((await app.db`select 1 from feature_flags where user_ids ? ${bystander.id}`).length, 1, 'their flag')
  t.equal((await app.db`select 1 from email_outbox where user_id = ${bystander.id} and kind = 'welcome'`).length, 1, 'their own mail')
  const like = await app.db`select 1 from email_outbox where user_id = ${bystander.id} and kind = 'like' and strpos(text, ${other.username}) > 0`
  t.equal(like.length, 1, 'mail about someone else is untouched')
}

t.test('an account deletion leaves only the masked request and the data-deletion email', async t => {
  const smtp = await smtpServer(t)
  const app = await build(t, { env: { SMTP_URL: smtp.url, PUSH_SERVICE_ORIGINS: 'http://127.0.0.1:*' } })
  const world = await touchEverything(t, app)
  const { victim, bystander, marker } = world
  const requestId = await deleteAndWait(app, victim, 'account')

  const left = await traces(app, [victim.id, victim.email, victim.username])
  const allowed = (trace: Trace) =>
    (trace.table === 'email_outbox' && trace.row.kind === 'data-deletion' && trace.row.to === victim.email)
  t.same(left.filter(trace => !allowed(trace)).map(describe), [], 'no row holds their id, email or username')
  t.ok(left.some(allowed), 'the data-deletion email stays')
  t.same((await traces(app, [marker, ...world.contentIds])).map(describe), [], 'no row holds their text or refers to their content')
  t.same(await app.db`select user_id, email from data_deletion_requests where id = ${requestId}`, [{ userId: null, email: `${victim.email[0]}***@example.com` }])

  // Sent mail that quoted them is kept as a record of what was delivered, without the content.
  const scrubbed = await app.db<Array<{ kind: string, subject: string, status: string }>>`select kind, subject, status from email_outbox
    where user_id = ${bystander.id} and kind = 'comment'`
  t.match(scrubbed, [{ kind: 'comment', status: 'sent', subject: /removed/i }], 'the delivered comment email, scrubbed')
  await bystanderKept(t, app, world)
  const family = await app.db<Array<{ userId: string, role: string }>>`select user_id, role from family_members where family_id = ${world.sharedFamily.id}`
  t.same(family, [{ userId: bystander.id, role: 'owner' }], 'the shared family passed to the bystander')
})

t.test('a data deletion leaves only the account', async t => {
  const app = await build(t, { env: { PUSH_SERVICE_ORIGINS: 'http://127.0.0.1:*' } })
  const world = await touchEverything(t, app)
  const { victim, bystander, marker } = world
  await deleteAndWait(app, victim, 'data')
  t.equal((await app.inject({ url: '/api/auth/me', headers: bearer(victim) })).statusCode, 200, 'still signed in')

  // The account: its row, its settings and memberships, what others granted it, its own account mail, its request.
  const own = (row: Row, column = 'user_id') => row[column] === victim.id
  const ACCOUNT: Record<string, (row: Row) => boolean> = {
    users: row => own(row, 'id'),
    consents: own,
    notification_settings: own,
    notification_preferences: own,
    push_subscriptions: own,
    subscriptions: own,
    usage: own,
    revoked_tokens: own,
    digest_runs: own,
    family_members: own,
    families: row => own(row, 'created_by'),
    collections: row => own(row) && row.type === 'saved',
    data_deletion_requests: own,
    email_outbox: row => own(row) && ['welcome', 'password-reset', 'data-deletion'].includes(row.kind as string),
    shared_meal_plans: row => own(row) && row.shared_by !== victim.id,
    recipe_audience: own,
    feature_flags: row => (row.user_ids as string[]).includes(victim.id)
  }
  const left = await traces(app, [victim.id, victim.email, victim.username])
  t.same(left.filter(trace => ACCOUNT[trace.table]?.(trace.row) !== true).map(describe), [], 'only the account holds their id, email or username')
  t.ok(left.some(trace => trace.table === 'users'), 'the search sees the account')
  t.same((await traces(app, [marker, ...world.contentIds])).map(describe), [], 'no row holds their text or refers to their content')

  const saved = await app.db`select 1 from collection_items i join collections c on c.id = i.collection_id where c.user_id = ${victim.id}`
  t.equal(saved.length, 0, 'their Saved Recipes collection stays, empty like their bookmarks')

  // Mail that quoted them and was never delivered (no SMTP here: recorded) is gone.
  t.same(await app.db`select kind from email_outbox where user_id = ${bystander.id} and kind = 'comment'`, [], 'the comment email')
  await bystanderKept(t, app, world)
  const family = await app.db<Array<{ userId: string }>>`select user_id from family_members where family_id = ${world.sharedFamily.id} order by joined_at`
  t.same(family.map(m => m.userId), [victim.id, bystander.id], 'families stay with the account')
})
