import t from 'tap'
import { NOTIFICATION_SETTINGS_DEFAULTS } from '../../../../db/schema/index.js'
import { MAX_REPORTED_PROBLEMS } from '../../../../lib/closed-body-validator.js'
import { bearer, build, expectValidationError, json, registerUser } from '../../../helper.js'

const PREFERENCE_DEFAULTS = {
  unsubscribedAll: false,
  newsletter: false,
  productUpdates: false,
  emailLikes: true,
  emailComments: true,
  emailFollows: true,
  emailNewRecipes: true,
  pushLikes: true,
  pushComments: true,
  pushFollows: true,
  pushNewRecipes: true
}

t.test('email preferences: known switches only, merged key by key', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const get = async (user = ann) => json(await app.inject({ url: '/api/users/email-preferences', headers: bearer(user) })).preferences
  const post = async (payload: Record<string, unknown>, user = ann) => await app.inject({ method: 'POST', url: '/api/users/email-preferences', headers: bearer(user), payload })
  /** The stored column itself: what #18 is about (no API shows it). */
  const stored = async (user = ann) =>
    (await app.db<Array<{ emailPreferences: Record<string, unknown>, size: number }>>`
      select email_preferences, pg_column_size(email_preferences) as size from users where id = ${user.id}`)[0]

  t.same(await get(), PREFERENCE_DEFAULTS, 'every switch, with its default')
  t.equal((await app.inject({ url: '/api/users/email-preferences' })).statusCode, 401)

  // decisions.md, Email preferences: an unknown key is 400 naming it, and nothing of that body is stored.
  const unknown = await post({ newsletter: true, pushLikes: false, marketing: false, push: { likes: true } })
  t.equal(unknown.statusCode, 400)
  t.same(json(unknown), { error: 'Validation error', details: ['marketing: is not allowed', 'push: is not allowed'] }, 'each unknown key named')
  t.same(await get(), PREFERENCE_DEFAULTS, 'not even the known switches of that body are stored')
  t.same((await stored()).emailPreferences, {}, 'the column is untouched')
  t.same(json(await post({ someKey: true })), { error: 'Validation error', details: ['someKey: is not allowed'] })

  const first = await post({ newsletter: true, pushLikes: false })
  t.equal(first.statusCode, 200)
  t.same(json(first).preferences, { ...PREFERENCE_DEFAULTS, newsletter: true, pushLikes: false })
  const merged = await post({ pushLikes: true, emailFollows: false })
  t.same(json(merged).preferences, { ...PREFERENCE_DEFAULTS, newsletter: true, emailFollows: false }, 'each given switch replaces the stored one; the others stay (the first POST survives the second)')
  t.same(await get(), json(merged).preferences)
  t.same(Object.keys((await stored()).emailPreferences).sort(), ['emailFollows', 'newsletter'], 'only known email switches are stored (push switches are push preferences)')

  expectValidationError(t, await post({ newsletter: 'yes' }), 'newsletter')
  expectValidationError(t, await post({ pushFollows: { deep: true } }), 'pushFollows')
  const mistyped = await post({ newsletter: false, emailFollows: 'no', pushLikes: false, extra: 1 })
  t.same(json(mistyped), { error: 'Validation error', details: ['extra: is not allowed', 'emailFollows: must be boolean'] }, 'unknown keys and wrong types together')
  t.same(await get(), json(merged).preferences, 'a refused body changes nothing, its valid switches included')

  // Most of a megabyte of arbitrary keys (under the body limit): one short answer, nothing stored.
  const junk = Object.fromEntries(Array.from({ length: 15_000 }, (_, i) => [`key${i}`, 'x'.repeat(40)]))
  const big = await post(junk)
  t.equal(big.statusCode, 400)
  t.same(json(big).details, Array.from({ length: MAX_REPORTED_PROBLEMS }, (_, i) => `key${i}: is not allowed`), `the first ${MAX_REPORTED_PROBLEMS} keys named, no more`)
  t.same(await get(), json(merged).preferences)
  t.ok((await stored()).size < 500, `the row stays small (${(await stored()).size} bytes)`)
  const longKey = 'k'.repeat(5000)
  t.same(json(await post({ [longKey]: true })).details, [`${'k'.repeat(100)}...: is not allowed`], 'a long key is named cut short')

  // A row written before the fix, with junk and wrong types: read as the known booleans, cleaned on the next write.
  await app.db`update users set email_preferences = ${app.db.json({ newsletter: 'yes', productUpdates: true, marketing: false, blob: 'x'.repeat(1000) })} where id = ${bob.id}`
  t.same(await get(bob), { ...PREFERENCE_DEFAULTS, productUpdates: true }, 'legacy junk is not shown')
  await post({ pushComments: false }, bob)
  t.same((await stored(bob)).emailPreferences, { productUpdates: true }, 'and is dropped on the next write')
  t.equal((await get(bob)).pushComments, false)
  t.same(await get(), json(merged).preferences, 'another user\'s writes never touch yours')
})

t.test('notification settings: the six typed settings only', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const get = async (user = ann) => json(await app.inject({ url: '/api/users/notification-settings', headers: bearer(user) })).settings
  const put = async (payload: Record<string, unknown>, user = ann) =>
    await app.inject({ method: 'PUT', url: '/api/users/notification-settings', headers: bearer(user), payload })

  t.same(await get(), NOTIFICATION_SETTINGS_DEFAULTS, 'the defaults until saved')
  t.equal((await app.inject({ url: '/api/users/notification-settings' })).statusCode, 401)

  const saved = await put({ emailLikes: false, digestFrequency: 'daily', digestTime: '18:30', digestTimezone: 'Europe/Paris', theme: 'dark', extra: { a: 1 } })
  t.equal(saved.statusCode, 200)
  const expected = { ...NOTIFICATION_SETTINGS_DEFAULTS, emailLikes: false, digestFrequency: 'daily', digestTime: '18:30', digestTimezone: 'Europe/Paris' }
  t.same(json(saved).settings, expected, 'unknown keys are dropped, not passed through')
  t.same(await get(), expected)
  t.same(json(await put({ digestDay: 'friday' })).settings, { ...expected, digestDay: 'friday' }, 'a partial update keeps the rest')
  t.equal(json(await put({ digestTimezone: 'america/new_york' })).settings.digestTimezone, 'America/New_York', 'zones are stored in their canonical form')

  expectValidationError(t, await put({ digestFrequency: 'hourly' }), 'digestFrequency')
  expectValidationError(t, await put({ digestDay: 'funday' }), 'digestDay')
  expectValidationError(t, await put({ digestTime: '25:00' }), 'digestTime')
  expectValidationError(t, await put({ digestTime: '9:00' }), 'digestTime')
  expectValidationError(t, await put({ emailComments: 'no' }), 'emailComments')
  for (const zone of ['Mars/Olympus', '+01:00', 'Europe/../Paris', 'x'.repeat(65)]) {
    expectValidationError(t, await put({ digestTimezone: zone }), 'digestTimezone')
  }
  t.same(await get(bob), NOTIFICATION_SETTINGS_DEFAULTS, 'another user is unaffected')
})

t.test('emailLikes and emailComments are one setting seen from both routes', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const headers = bearer(ann)
  await app.inject({ method: 'POST', url: '/api/users/email-preferences', headers, payload: { emailLikes: false } })
  t.equal(json(await app.inject({ url: '/api/users/notification-settings', headers })).settings.emailLikes, false)
  await app.inject({ method: 'PUT', url: '/api/users/notification-settings', headers, payload: { emailComments: false } })
  const prefs = json(await app.inject({ url: '/api/users/email-preferences', headers })).preferences
  t.same([prefs.emailLikes, prefs.emailComments], [false, false])
})

t.test('push switches are the push preferences of the notification types they cover', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const emailPrefs = async (user = ann) => json(await app.inject({ url: '/api/users/email-preferences', headers: bearer(user) })).preferences
  const pushPrefs = async (user = ann) => json(await app.inject({ url: '/api/push-notifications/preferences', headers: bearer(user) })).preferences
  const putPush = async (payload: Record<string, boolean>) =>
    await app.inject({ method: 'PUT', url: '/api/push-notifications/preferences', headers: bearer(ann), payload })
  const postEmail = async (payload: Record<string, boolean>) =>
    await app.inject({ method: 'POST', url: '/api/users/email-preferences', headers: bearer(ann), payload })
  const allOn = { like: true, comment: true, reply: true, follow: true, rating: true, new_recipe: true, family_invite: true, meal_plan_shared: true, system: true }

  t.equal((await putPush({ like: false })).statusCode, 200)
  t.same(await emailPrefs(), { ...PREFERENCE_DEFAULTS, pushLikes: false }, 'like off is pushLikes off')

  t.same(json(await postEmail({ pushLikes: true, pushComments: false })).preferences, { ...PREFERENCE_DEFAULTS, pushComments: false })
  t.same(await pushPrefs(), { ...allOn, comment: false, reply: false }, 'pushLikes on is like on; pushComments covers comments and replies')

  await putPush({ reply: true })
  t.equal((await emailPrefs()).pushComments, false, 'pushComments is on only when comments and replies both are')
  await putPush({ comment: true })
  t.equal((await emailPrefs()).pushComments, true)

  await postEmail({ pushFollows: false, pushNewRecipes: false })
  t.same(await pushPrefs(), { ...allOn, follow: false, new_recipe: false })
  t.same(await emailPrefs(), { ...PREFERENCE_DEFAULTS, pushFollows: false, pushNewRecipes: false })
  const [row] = await app.db<Array<{ emailPreferences: Record<string, unknown> }>>`select email_preferences from users where id = ${ann.id}`
  t.notOk(Object.keys(row.emailPreferences).some(key => key.startsWith('push')), 'no second copy in the email_preferences column')

  t.same(await pushPrefs(bob), allOn, 'another user is unaffected')
  t.same(await emailPrefs(bob), PREFERENCE_DEFAULTS)
})
