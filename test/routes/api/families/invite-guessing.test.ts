import t from 'tap'
import { bearer, build, json, registerUser } from '../../../helper.js'
import { createFamily } from '../../../helpers/families.js'

t.test('wrong invite codes count against the auth limit; right ones never do', async t => {
  // Two registrations count too (every registration does): 2 of 5 used before the first guess.
  const app = await build(t, { env: { RATE_LIMIT_AUTH_MAX: '5' } })
  const [owner, ann] = await Promise.all([registerUser(app), registerUser(app)])
  const family = await createFamily(app, owner)

  for (let i = 0; i < 5; i++) t.equal((await app.inject({ url: `/api/families/invite/${family.inviteCode}` })).statusCode, 200, 'a right code, again and again')
  t.equal((await app.inject({ url: '/api/families/invite/00000000' })).statusCode, 404)
  t.equal((await app.inject({ url: '/api/families/invite/nothex!!' })).statusCode, 400)
  t.equal((await app.inject({ method: 'POST', url: '/api/families/join', headers: bearer(ann), payload: { inviteCode: 'ffffffff' } })).statusCode, 404)
  const limited = await app.inject({ url: `/api/families/invite/${family.inviteCode}` })
  t.equal(limited.statusCode, 429, 'after three wrong guesses even a right code waits')
  t.match(json(limited), { error: 'Too many requests', limit: 'auth' })
  t.ok(Number(limited.headers['retry-after']) > 0)
  t.equal((await app.inject({ method: 'POST', url: '/api/families/join', headers: bearer(ann), payload: { inviteCode: family.inviteCode } })).statusCode, 429, 'join too')
})
