// External sign-in against a real JWKS endpoint on 127.0.0.1, with ID tokens signed by the test's own keys.
import { createServer, type Server } from 'node:http'
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose'
import t, { type Test } from 'tap'
import { bearer, build, json, registerUser, setAccountStatus } from '../../../helper.js'

const ISSUER = 'https://id.example.test'
const AUDIENCE = 'recipes-client'

async function identityProvider (t: Test) {
  const { publicKey, privateKey } = await generateKeyPair('RS256')
  const stranger = await generateKeyPair('RS256')
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' }
  const server: Server = createServer((req, res) => {
    if (req.url !== '/jwks') { res.writeHead(404).end(); return }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { server.close() })
  const port = (server.address() as { port: number }).port
  const sign = async (claims: Record<string, unknown>, options: { key?: CryptoKey, kid?: string, iss?: string, aud?: string, exp?: number } = {}) =>
    await new SignJWT({ email_verified: true, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'key-1' })
      .setIssuer(options.iss ?? ISSUER)
      .setAudience(options.aud ?? AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(options.exp ?? Math.floor(Date.now() / 1000) + 600)
      .sign(options.key ?? privateKey)
  return { jwksUrl: `http://127.0.0.1:${port}/jwks`, sign, strangerKey: stranger.privateKey }
}

t.test('external sign-in', async t => {
  const idp = await identityProvider(t)
  const app = await build(t, { env: { OAUTH_PROVIDERS: JSON.stringify({ testid: { issuer: ISSUER, audience: AUDIENCE, jwksUrl: idp.jwksUrl } }) } })
  const oauth = async (idToken: string, provider = 'testid', url = '/api/auth/oauth') =>
    await app.inject({ method: 'POST', url, payload: { provider, idToken } })

  t.test('first sign-in creates the account, later ones find it', async t => {
    const idToken = await idp.sign({ sub: 'subject-1', email: 'New.Person@Example.com' })
    const first = await oauth(idToken)
    t.equal(first.statusCode, 200)
    const body = json(first)
    t.equal(body.user.email, 'new.person@example.com')
    t.equal(body.user.username, 'new.person', 'username derived from the (normalised) email')
    t.equal((await app.inject({ url: '/api/auth/me', headers: bearer(body) })).statusCode, 200)
    // No API shows these columns.
    const [row] = await app.db<Array<{ password: string, oauthProvider: string, oauthId: string }>>`
      select password, oauth_provider, oauth_id from users where id = ${body.user.id}`
    t.match(row.password, new RegExp(`^\\$2b\\$${String(app.passwords.cost).padStart(2, '0')}\\$`), 'random password hash')
    t.same([row.oauthProvider, row.oauthId], ['testid', 'subject-1'])
    const again = await oauth(await idp.sign({ sub: 'subject-1', email: 'new.person@example.com' }))
    t.equal(json(again).user.id, body.user.id)
  })

  t.test('a taken username gets a free variant', async t => {
    await registerUser(app, { username: 'chef', email: 'chef-local@example.com' })
    const res = await oauth(await idp.sign({ sub: 'subject-2', email: 'chef@elsewhere.example' }))
    t.equal(res.statusCode, 200)
    t.match(json(res).user.username, /^chef\d+$/)
  })

  t.test('refused tokens', async t => {
    const claims = { sub: 'subject-3', email: 'x@example.com' }
    const cases: Record<string, string> = {
      'wrong issuer': await idp.sign(claims, { iss: 'https://evil.example' }),
      'wrong audience': await idp.sign(claims, { aud: 'another-client' }),
      expired: await idp.sign(claims, { exp: Math.floor(Date.now() / 1000) - 60 }),
      'unknown key id': await idp.sign(claims, { kid: 'key-unknown' }),
      'signed by someone else': await idp.sign(claims, { key: idp.strangerKey }),
      garbage: 'a.b.c'
    }
    for (const [name, token] of Object.entries(cases)) {
      const res = await oauth(token)
      t.equal(res.statusCode, 401, name)
      t.same(json(res), { error: 'Invalid identity token' }, name)
    }
    const unknownProvider = await oauth(await idp.sign(claims), 'nope')
    t.equal(unknownProvider.statusCode, 400)
  })

  t.test('existing email: linked only when the provider verified it', async t => {
    const local = await registerUser(app, { email: 'linked@example.com' })
    const unverified = await oauth(await idp.sign({ sub: 'subject-4', email: 'linked@example.com', email_verified: false }))
    t.equal(unverified.statusCode, 409)
    const verified = await oauth(await idp.sign({ sub: 'subject-4', email: 'linked@example.com' }))
    t.equal(verified.statusCode, 200)
    t.equal(json(verified).user.id, local.id)
  })

  t.test('one-time code exchange', async t => {
    const codeRes = await oauth(await idp.sign({ sub: 'subject-5', email: 'coder@example.com' }), 'testid', '/api/auth/oauth/code')
    t.equal(codeRes.statusCode, 200)
    const { code, expiresIn } = json(codeRes)
    t.equal(expiresIn, 60)
    t.notMatch(codeRes.body, /eyJ/, 'no token in the code response')
    const exchange = async (c: string) => await app.inject({ method: 'POST', url: '/api/auth/oauth/exchange', payload: { code: c } })
    const first = await exchange(code)
    t.equal(first.statusCode, 200)
    t.equal(json(first).user.email, 'coder@example.com')
    t.equal((await app.inject({ url: '/api/auth/me', headers: bearer(json(first)) })).statusCode, 200)
    const reuse = await exchange(code)
    t.equal(reuse.statusCode, 400, 'a code works once')
    t.same(json(reuse), { error: 'Invalid or expired code' })
    t.equal((await exchange('made-up')).statusCode, 400)

    const racing = json(await oauth(await idp.sign({ sub: 'subject-5', email: 'coder@example.com' }), 'testid', '/api/auth/oauth/code')).code
    const both = await Promise.all([exchange(racing), exchange(racing)])
    t.same(both.map(r => r.statusCode).sort(), [200, 400], 'concurrent exchanges: one wins')
  })

  t.test('banned accounts cannot sign in through a provider', async t => {
    const first = json(await oauth(await idp.sign({ sub: 'subject-6', email: 'later-banned@example.com' })))
    const code = json(await oauth(await idp.sign({ sub: 'subject-6', email: 'later-banned@example.com' }), 'testid', '/api/auth/oauth/code')).code
    await setAccountStatus(app, first.user, { banned: true })
    const again = await oauth(await idp.sign({ sub: 'subject-6', email: 'later-banned@example.com' }))
    t.equal(again.statusCode, 403)
    t.same(json(again), { error: 'Account is banned' })
    const exchanged = await app.inject({ method: 'POST', url: '/api/auth/oauth/exchange', payload: { code } })
    t.equal(exchanged.statusCode, 403, 'a code issued before the ban does not sign in either')
  })
})
