import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { SignJWT } from 'jose'
import { parse, type DefaultTreeAdapterMap } from 'parse5'
import t, { type Test } from 'tap'
import { NOTIFICATION_SETTINGS_DEFAULTS } from '../../../../db/schema/index.js'
import { previewEnabled } from '../../../../plugins/app/services/unsubscribe.js'
import { bearer, build, json, registerUser, type TestUser } from '../../../helper.js'

type Element = DefaultTreeAdapterMap['element']
type Node = DefaultTreeAdapterMap['node']

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }
const NINETY_DAYS = 90 * 24 * 60 * 60

function elements (node: Node, found: Element[] = []): Element[] {
  if ('tagName' in node) found.push(node)
  for (const child of 'childNodes' in node ? node.childNodes : []) elements(child, found)
  return found
}
const attr = (element: Element, name: string) => element.attrs.find(a => a.name === name)?.value
const textOf = (node: Node): string => node.nodeName === '#text'
  ? (node as { value: string }).value
  : ('childNodes' in node ? node.childNodes.map(textOf).join('') : '')

/** The page's elements, after the checks every unsubscribe page passes: its own headers, nothing that runs. */
function checkPage (t: Test, res: LightMyRequestResponse, status: number): Element[] {
  t.equal(res.statusCode, status, `status ${status}: ${res.body.slice(0, 200)}`)
  t.equal(res.headers['content-type'], 'text/html; charset=utf-8')
  t.equal(res.headers['content-security-policy'], PAGE_CSP, 'the page\'s own CSP, not the API\'s')
  t.equal(res.headers['cache-control'], 'no-store')
  t.equal(res.headers['referrer-policy'], 'no-referrer', 'the URL holds a token')
  const all = elements(parse(res.body))
  t.same(all.filter(e => e.tagName === 'script').length, 0, 'no <script>')
  t.same(all.flatMap(e => e.attrs.filter(a => /^on/i.test(a.name)).map(a => a.name)), [], 'no on* attributes')
  return all
}

async function settings (app: FastifyInstance, user: TestUser) {
  return json(await app.inject({ url: '/api/users/notification-settings', headers: bearer(user) })).settings
}
async function preferences (app: FastifyInstance, user: TestUser) {
  return json(await app.inject({ url: '/api/users/email-preferences', headers: bearer(user) })).preferences
}

t.test('the page shows the address and a confirm form, and changes nothing', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const token = app.unsubscribeService.token(user.id)

  const res = await app.inject({ url: `/api/unsubscribe?token=${token}` })
  const all = checkPage(t, res, 200)
  t.ok(textOf(all.find(e => e.tagName === 'body')!).includes(user.email), 'shows the account\'s email')
  const form = all.find(e => e.tagName === 'form')!
  t.equal(attr(form, 'method'), 'post')
  t.equal(attr(form, 'action'), '/api/unsubscribe')
  const inputs = elements(form).filter(e => e.tagName === 'input')
  t.same(inputs.filter(i => attr(i, 'type') === 'hidden').map(i => [attr(i, 'name'), attr(i, 'value')]), [['token', token]], 'the token, hidden')
  const radios = inputs.filter(i => attr(i, 'type') === 'radio')
  t.same(radios.map(r => attr(r, 'value')), ['all', 'likes', 'comments', 'digest'])
  t.same(radios.filter(r => attr(r, 'checked') != null).map(r => attr(r, 'value')), ['all'], 'all preselected')

  const likes = checkPage(t, await app.inject({ url: `/api/unsubscribe?token=${token}&scope=likes` }), 200)
  t.same(likes.filter(e => attr(e, 'type') === 'radio' && attr(e, 'checked') != null).map(r => attr(r, 'value')), ['likes'], 'the scope query preselects')
  t.equal((await app.inject({ url: `/api/unsubscribe?token=${token}&scope=everything` })).statusCode, 400, 'unknown scope')

  t.same(await settings(app, user), NOTIFICATION_SETTINGS_DEFAULTS, 'opening the page (or a link scanner) changes nothing')
  t.equal((await preferences(app, user)).unsubscribedAll, false)
})

t.test('the address is escaped on the page', async t => {
  const app = await build(t)
  // The email format allows ' and &: both must come out as text.
  const user = await registerUser(app, { email: `o'brien&co.${process.pid}@example.com` })
  const token = app.unsubscribeService.token(user.id)
  let res = await app.inject({ url: `/api/unsubscribe?token=${token}` })
  let all = checkPage(t, res, 200)
  t.notOk(res.body.includes("o'brien&co"), 'raw characters absent')
  t.ok(textOf(all.find(e => e.tagName === 'body')!).includes(user.email), 'shown as written')

  // No API stores an address with markup, but the page must not rely on what was stored: escape at output.
  const hostile = '"><script>alert(1)</script><img src=x onerror=alert(1)>@example.com'
  await app.db`update users set email = ${hostile} where id = ${user.id}`
  res = await app.inject({ url: `/api/unsubscribe?token=${token}` })
  all = checkPage(t, res, 200)
  t.same(all.filter(e => e.tagName === 'img').length, 0, 'no injected element')
  t.ok(textOf(all.find(e => e.tagName === 'body')!).includes(hostile), 'the markup is shown as text')
  const done = await app.inject({ method: 'POST', url: '/api/unsubscribe', headers: { ...FORM, accept: 'text/html' }, payload: `token=${token}` })
  all = checkPage(t, done, 200)
  t.ok(textOf(all.find(e => e.tagName === 'body')!).includes(hostile), 'escaped on the confirmation page too')
  t.same(all.filter(e => e.tagName === 'img').length, 0)
})

t.test('each scope turns off its emails, through the JSON post', async t => {
  const app = await build(t)
  const expected = {
    all: { settings: { emailLikes: false, emailComments: false, digestFrequency: 'none' }, preferences: { unsubscribedAll: true, emailLikes: false, emailComments: false } },
    likes: { settings: { emailLikes: false }, preferences: { emailLikes: false } },
    comments: { settings: { emailComments: false }, preferences: { emailComments: false } },
    digest: { settings: { digestFrequency: 'none' }, preferences: {} }
  }
  for (const [scope, effect] of Object.entries(expected)) {
    const user = await registerUser(app)
    const before = { settings: await settings(app, user), preferences: await preferences(app, user) }
    const token = app.unsubscribeService.token(user.id)
    const res = await app.inject({ method: 'POST', url: '/api/unsubscribe', payload: { token, scope } })
    t.equal(res.statusCode, 200, scope)
    t.same(json(res), { success: true, email: user.email, scope }, `${scope}: the address, as it is`)
    t.equal(res.headers['cache-control'], 'no-store')
    t.same(await settings(app, user), { ...before.settings, ...effect.settings }, `${scope}: notification settings, nothing else changed`)
    t.same(await preferences(app, user), { ...before.preferences, ...effect.preferences }, `${scope}: email preferences, nothing else changed`)

    const again = await app.inject({ method: 'POST', url: '/api/unsubscribe', payload: { token, scope } })
    t.same(json(again), json(res), `${scope}: repeating it is harmless`)
    t.same(await settings(app, user), { ...before.settings, ...effect.settings }, `${scope}: and changes nothing more`)
  }

  const user = await registerUser(app)
  const res = await app.inject({ method: 'POST', url: '/api/unsubscribe', payload: { token: app.unsubscribeService.token(user.id) } })
  t.equal(json(res).scope, 'all', 'scope defaults to all')
  t.equal((await settings(app, user)).digestFrequency, 'none')
})

t.test('RFC 8058 one-click: the header\'s link and a form body', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const other = await registerUser(app)
  const headers = app.unsubscribeService.headers(user.id)
  t.equal(headers['List-Unsubscribe-Post'], 'List-Unsubscribe=One-Click')
  const link = /^<(.+)>$/.exec(headers['List-Unsubscribe'])?.[1]
  t.ok(link?.startsWith(`${app.config.apiPublicUrl}/api/unsubscribe?token=`), `link: ${link}`)
  const url = new URL(link!)

  // A mail provider follows the header as it is: POST, the form body, no Accept.
  const res = await app.inject({ method: 'POST', url: url.pathname + url.search, headers: FORM, payload: 'List-Unsubscribe=One-Click' })
  t.equal(res.statusCode, 200, res.body)
  t.same(json(res), { success: true, email: user.email, scope: 'all' })
  t.same(await preferences(app, user), { ...(await preferences(app, other)), unsubscribedAll: true, emailLikes: false, emailComments: false })
  t.equal((await settings(app, user)).digestFrequency, 'none')
  t.same(await settings(app, other), NOTIFICATION_SETTINGS_DEFAULTS, 'nobody else is touched')

  const scoped = new URL(app.unsubscribeService.link(other.id, 'comments'))
  t.equal(scoped.searchParams.get('scope'), 'comments', 'a suggested scope rides along in the link')
  t.equal(new URL(app.unsubscribeService.link(other.id)).searchParams.has('scope'), false, 'all is the default, not written')
  await app.inject({ method: 'POST', url: scoped.pathname + scoped.search, headers: FORM, payload: 'List-Unsubscribe=One-Click' })
  t.same(await settings(app, other), { ...NOTIFICATION_SETTINGS_DEFAULTS, emailComments: false }, 'the query\'s scope')

  // The body's token and scope win over the query's.
  const third = await registerUser(app)
  const body = `token=${app.unsubscribeService.token(third.id)}&scope=likes`
  const won = await app.inject({ method: 'POST', url: `/api/unsubscribe?token=${app.unsubscribeService.token(other.id)}&scope=digest`, headers: FORM, payload: body })
  t.same(json(won), { success: true, email: third.email, scope: 'likes' })
  t.same(await settings(app, other), { ...NOTIFICATION_SETTINGS_DEFAULTS, emailComments: false }, 'the query\'s user untouched')

  const bodyless = await app.inject({ method: 'POST', url: `/api/unsubscribe?token=${app.unsubscribeService.token(third.id)}&scope=digest` })
  t.same(json(bodyless), { success: true, email: third.email, scope: 'digest' }, 'a post with no body at all: the query is enough')
  t.equal((await settings(app, third)).digestFrequency, 'none')

  const big = await app.inject({ method: 'POST', url: url.pathname + url.search, headers: FORM, payload: `List-Unsubscribe=One-Click&pad=${'x'.repeat(10_000)}` })
  t.equal(big.statusCode, 413, 'form bodies are small')
  const elsewhere = await app.inject({ method: 'POST', url: '/api/users/email-preferences', headers: { ...FORM, ...bearer(user) }, payload: 'newsletter=true' })
  t.equal(elsewhere.statusCode, 415, 'the form parser is this family\'s alone')
})

t.test('the page\'s form post answers a page', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const page = checkPage(t, await app.inject({ url: `/api/unsubscribe?token=${app.unsubscribeService.token(user.id)}&scope=comments` }), 200)
  // What a browser submits: every named input, the checked radio only.
  const fields = elements(page.find(e => e.tagName === 'form')!)
    .filter(e => e.tagName === 'input' && (attr(e, 'type') !== 'radio' || attr(e, 'checked') != null))
    .map((e): [string, string] => [attr(e, 'name')!, attr(e, 'value')!])
  const res = await app.inject({
    method: 'POST',
    url: '/api/unsubscribe',
    headers: { ...FORM, accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    payload: new URLSearchParams(fields).toString()
  })
  const all = checkPage(t, res, 200)
  t.match(textOf(all.find(e => e.tagName === 'body')!), `${user.email} no longer gets emails about comments`)
  t.same(await settings(app, user), { ...NOTIFICATION_SETTINGS_DEFAULTS, emailComments: false })
})

t.test('tokens that are not unsubscribe tokens: 400, and no address shown', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const key = (secret: string) => new TextEncoder().encode(secret)
  const now = Math.floor(Date.now() / 1000)
  const sign = async (payload: Record<string, unknown>, options: { secret?: string, alg?: string, exp?: number, aud?: string | null } = {}) => {
    const jwt = new SignJWT(payload).setProtectedHeader({ alg: options.alg ?? 'HS256' }).setIssuedAt().setExpirationTime(options.exp ?? now + 3600)
    if (options.aud !== null) jwt.setAudience(options.aud ?? 'unsubscribe')
    return await jwt.sign(key(options.secret ?? app.config.jwtSecret))
  }
  const claims = { sub: user.id, typ: 'unsubscribe' }
  // The control: built the same way, with nothing wrong, it works; each case below changes one thing.
  const control = await sign(claims)
  t.same(app.unsubscribeService.verify(control), { userId: user.id }, 'control token verifies')

  const unsigned = [{ alg: 'none', typ: 'JWT' }, { ...claims, aud: 'unsubscribe', exp: now + 3600 }].map(part => Buffer.from(JSON.stringify(part)).toString('base64url')).join('.') + '.'
  const own = app.unsubscribeService.token(user.id)
  const bad: Record<string, string> = {
    expired: await sign(claims, { exp: now - 10 }),
    'another secret': await sign(claims, { secret: 'x'.repeat(48) }),
    'the admin secret': await sign(claims, { secret: app.config.adminJwtSecret }),
    'alg none': unsigned,
    'alg HS512': await sign(claims, { alg: 'HS512' }),
    'no typ': await sign({ sub: user.id }),
    'another typ': await sign({ ...claims, typ: 'admin' }),
    'no audience': await sign(claims, { aud: null }),
    'another audience': await sign(claims, { aud: 'recipes-api' }),
    'no subject': await sign({ typ: 'unsubscribe' }),
    'no expiry': await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setAudience('unsubscribe').sign(key(app.config.jwtSecret)),
    'a user login token': user.token,
    tampered: own.slice(0, own.lastIndexOf('.') + 1) + Buffer.from('x'.repeat(32)).toString('base64url'),
    garbage: 'not.a.token',
    empty: ''
  }
  for (const [name, token] of Object.entries(bad)) {
    t.equal(app.unsubscribeService.verify(token), null, `${name}: verify says null`)
    const page = await app.inject({ url: `/api/unsubscribe?token=${encodeURIComponent(token)}` })
    const all = checkPage(t, page, 400)
    t.match(textOf(all.find(e => e.tagName === 'body')!), /invalid or has expired/, `${name}: says so`)
    t.notOk(page.body.includes(user.email), `${name}: no address`)
    t.same(all.filter(e => e.tagName === 'form').length, 0, `${name}: no form`)

    const posted = await app.inject({ method: 'POST', url: '/api/unsubscribe', payload: { token } })
    t.equal(posted.statusCode, 400, `${name}: JSON 400`)
    t.same(json(posted), { error: 'This unsubscribe link is invalid or expired' })
    const form = await app.inject({ method: 'POST', url: '/api/unsubscribe', headers: { ...FORM, accept: 'text/html' }, payload: `token=${encodeURIComponent(token)}` })
    checkPage(t, form, 400)
    const oneClick = await app.inject({ method: 'POST', url: `/api/unsubscribe?token=${encodeURIComponent(token)}`, headers: FORM, payload: 'List-Unsubscribe=One-Click' })
    t.equal(oneClick.statusCode, 400, `${name}: one-click 400`)
  }
  t.same(await settings(app, user), NOTIFICATION_SETTINGS_DEFAULTS, 'nothing changed')
  const none = await app.inject({ method: 'POST', url: '/api/unsubscribe' })
  t.equal(none.statusCode, 400, 'no token at all')
  t.same(json(none), { error: 'This unsubscribe link is invalid or expired' })
  t.equal((await app.inject({ url: '/api/unsubscribe' })).statusCode, 400)

  // Well signed but for an account that is gone: 404, still without a form.
  const gone = app.unsubscribeService.token('no-such-user')
  checkPage(t, await app.inject({ url: `/api/unsubscribe?token=${gone}` }), 404)
  const goneJson = await app.inject({ method: 'POST', url: '/api/unsubscribe', payload: { token: gone } })
  t.equal(goneJson.statusCode, 404)
  t.same(json(goneJson), { error: 'User not found' })
})

t.test('an unsubscribe token is never a user token', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const token = app.unsubscribeService.token(user.id)
  const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString())
  t.match(payload, { sub: user.id, typ: 'unsubscribe', aud: 'unsubscribe' })
  t.equal(payload.exp - payload.iat, NINETY_DAYS, 'valid 90 days')
  t.equal(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).alg, 'HS256')
  for (const url of ['/api/auth/me', '/api/users/notification-settings']) {
    const res = await app.inject({ url, headers: bearer({ token }) })
    t.equal(res.statusCode, 401, `${url}: Bearer unsubscribe token refused`)
    t.same(json(res), { error: 'Invalid or expired token' })
  }
  t.equal((await app.inject({ url: '/api/auth/me', headers: bearer(user) })).statusCode, 200, 'the user\'s own token works')
})

t.test('concurrent applies all succeed and agree', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const token = app.unsubscribeService.token(user.id)
  const scopes = ['all', 'likes', 'comments', 'digest', 'all', 'likes', 'comments', 'digest', 'all', 'all']
  const results = await Promise.all(scopes.map(async scope => await app.inject({ method: 'POST', url: '/api/unsubscribe', payload: { token, scope } })))
  t.same(results.map(r => r.statusCode), scopes.map(() => 200))
  t.same(await settings(app, user), { ...NOTIFICATION_SETTINGS_DEFAULTS, emailLikes: false, emailComments: false, digestFrequency: 'none' })
  t.equal((await preferences(app, user)).unsubscribedAll, true)
})

t.test('preview: a link for any id in development and test only', async t => {
  for (const [env, enabled] of [['production', false], [undefined, false], ['', false], ['staging', false], ['Test', false], ['test', true], ['development', true]] as const) {
    t.equal(previewEnabled(env), enabled, `NODE_ENV ${String(env)}`)
  }

  const app = await build(t)
  const res = await app.inject('/api/unsubscribe/preview/any-id-at-all')
  t.equal(res.statusCode, 200)
  const { token, link } = json(res)
  t.same(app.unsubscribeService.verify(token), { userId: 'any-id-at-all' }, 'a working token, no lookup')
  t.equal(link, `${app.config.apiPublicUrl}/api/unsubscribe?token=${token}`, 'scope all')

  const development = await build(t, { env: { NODE_ENV: 'development' } })
  t.equal((await development.inject('/api/unsubscribe/preview/u1')).statusCode, 200, 'development')

  // Production needs settings a test cannot give; NODE_ENV unset takes the same path (not development or test).
  const unset = await build(t, { env: { NODE_ENV: undefined } })
  const off = await unset.inject('/api/unsubscribe/preview/u1')
  t.equal(off.statusCode, 404, 'NODE_ENV unset')
  t.equal(off.body, 'Not found')
  t.match(off.headers['content-type'], /^text\/plain/)
})

t.test('documented', async t => {
  const app = await build(t)
  const doc = json(await app.inject('/api/docs/json'))
  const page = doc.paths['/api/unsubscribe'].get
  const confirm = doc.paths['/api/unsubscribe'].post
  const preview = doc.paths['/api/unsubscribe/preview/{userId}'].get
  t.same([page.operationId, confirm.operationId, preview.operationId], ['unsubscribe.page', 'unsubscribe.confirm', 'unsubscribe.preview'])
  t.same(page.tags, ['Unsubscribe'])
  t.ok(page.responses['200'].content['text/html'], 'the page is HTML')
  t.same(Object.keys(confirm.requestBody.content).sort(), ['application/json', 'application/x-www-form-urlencoded'])
  t.same(Object.keys(confirm.responses['200'].content).sort(), ['application/json', 'text/html'])
  t.ok(preview.responses['404'].content['text/plain'], 'the plain 404')
  t.notOk(page.security ?? confirm.security ?? preview.security, 'public')
})
