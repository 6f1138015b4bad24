// Follow counts are kept on the user by triggers (migration 0025): exact under concurrent and mutual follows, cascades
// of a deleted account and hidden users, whatever path writes the follows.
import t from 'tap'
import { bearer, build, json, registerUser, setAccountStatus, type TestUser } from '../../../helper.js'

t.test('follow counts stay equal to the follow rows', async t => {
  const app = await build(t)
  const star = await registerUser(app)
  const fans = await Promise.all(Array.from({ length: 30 }, async () => await registerUser(app)))
  const followReq = async (user: TestUser, target: { id: string }, method: 'POST' | 'DELETE' = 'POST') =>
    await app.inject({ method, url: `/api/social/users/${target.id}/follow`, headers: bearer(user) })
  const counts = async (of: TestUser) => json(await app.inject({ url: `/api/users/${of.username}` })).user._count
  const drift = async () => {
    const [{ n }] = await app.db<Array<{ n: number }>>`select count(*)::int as n from users u
      where u.follower_count <> (select count(*) from follows f where f.following_id = u.id)
         or u.following_count <> (select count(*) from follows f where f.follower_id = u.id)`
    return n
  }

  // Every fan follows the star while the star follows every fan back: the same pairs of rows, locked from both sides.
  const results = await Promise.all(fans.flatMap(fan => [followReq(fan, star), followReq(star, fan)]))
  t.same([...new Set(results.map(r => r.statusCode))], [200], 'no deadlock, no error')
  t.match(await counts(star), { followers: 30, following: 30 })
  t.match(await counts(fans[0]), { followers: 1, following: 1 })
  t.equal(await drift(), 0, 'stored counts equal the rows')
  t.same(json(await followReq(fans[0], star)), { following: true, followerCount: 30 }, 'the follow answer reads the kept count')

  await Promise.all(fans.slice(0, 10).map(async fan => await followReq(fan, star, 'DELETE')))
  t.match(await counts(star), { followers: 20, following: 30 }, 'concurrent unfollows')

  // Hidden users still have their rows counted, and readers leave them out.
  await setAccountStatus(app, fans[10], { banned: true })
  await setAccountStatus(app, fans[11], { active: false })
  t.match(await counts(star), { followers: 18, following: 28 }, 'hidden followers and followings are not shown')
  t.same(json(await followReq(fans[12], star, 'DELETE')), { following: false, followerCount: 17 })

  // An account deleted with its follows cascading: the other side's counts drop in the same statement.
  await app.db`delete from users where id = ${fans[13].id}`
  t.match(await counts(star), { followers: 16, following: 27 })
  t.equal(await drift(), 0, 'stored counts equal the rows after the cascade')
  const self = json(await app.inject({ url: '/api/auth/me', headers: bearer(star) })).user
  t.match(self._count, { followers: 16, following: 27 }, 'me reads the same counts')
})
