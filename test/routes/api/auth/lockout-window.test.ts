// The user lockout counts only failures within the lock period (repositories/lockout.ts, shared with admins).
import t from 'tap'
import { build, login, registerUser } from '../../../helper.js'

t.test('failures older than 15 minutes no longer count towards the lock', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const wrong = async () => (await login(app, user.username, 'Wrong-guess-1')).statusCode

  for (let i = 0; i < 4; i++) t.equal(await wrong(), 401)
  // 16 minutes later for those four (no API moves the clock).
  await app.db`update users set failed_login_times = array(select at - interval '16 minutes' from unnest(failed_login_times) as at)
    where id = ${user.id}`
  for (let i = 0; i < 4; i++) t.equal(await wrong(), 401, `recent failure ${i + 1}: the old four do not count`)
  const [row] = await app.db`select failed_login_attempts, locked_at from users where id = ${user.id}`
  t.same(row, { failedLoginAttempts: 4, lockedAt: null })
  t.equal(await wrong(), 401, 'the fifth recent failure')
  t.equal((await login(app, user.username, user.password)).statusCode, 423, 'locks the account')
})
