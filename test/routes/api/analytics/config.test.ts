// GET /api/analytics/config: the public client analytics settings, from the environment, with the caller's opt-out.
import t from 'tap'
import { bearer, build, json, registerUser } from '../../../helper.js'

t.test('no provider configured: disabled', async t => {
  const app = await build(t)
  const res = await app.inject({ url: '/api/analytics/config' })
  t.equal(res.statusCode, 200)
  t.same(json(res), { enabled: false, provider: null, siteId: null, host: null, respectDoNotTrack: true, requiresConsent: true, doNotSell: false })
})

t.test('a configured provider, and the signed-in caller\'s do-not-sell choice', async t => {
  const app = await build(t, { env: { ANALYTICS_PROVIDER: 'plausible', ANALYTICS_SITE_ID: 'recipes.example', ANALYTICS_HOST: 'https://stats.example' } })
  const expected = { enabled: true, provider: 'plausible', siteId: 'recipes.example', host: 'https://stats.example', respectDoNotTrack: true, requiresConsent: true }
  t.same(json(await app.inject({ url: '/api/analytics/config' })), { ...expected, doNotSell: false }, 'anonymous')

  const ann = await registerUser(app)
  t.same(json(await app.inject({ url: '/api/analytics/config', headers: bearer(ann) })), { ...expected, doNotSell: false }, 'signed in, not opted out')
  t.equal((await app.inject({ method: 'POST', url: '/api/ccpa/do-not-sell/request', headers: bearer(ann), payload: { email: ann.email } })).statusCode, 201)
  t.same(json(await app.inject({ url: '/api/analytics/config', headers: bearer(ann) })), { ...expected, doNotSell: true }, 'signed in, opted out')
  const garbled = await app.inject({ url: '/api/analytics/config', headers: { authorization: 'Bearer nonsense' } })
  t.equal(garbled.statusCode, 200, 'a bad token is anonymous')
  t.equal(json(garbled).doNotSell, false)
})
