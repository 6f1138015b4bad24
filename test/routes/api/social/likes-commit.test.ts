// Likes commit without waiting for the WAL flush (quickCommit): only their own transaction, never the connection.
import t from 'tap'
import { likesRepository } from '../../../../plugins/app/repositories/likes.js'
import { quickCommit } from '../../../../plugins/app/repositories/hot/sql.js'
import { build, createRecipe, registerUser } from '../../../helper.js'

t.test('quickCommit turns synchronous_commit off for its statement only', async t => {
  const app = await build(t)
  const connection = await app.db.reserve()
  t.teardown(() => connection.release())
  // Test databases commit asynchronously (test/setup/database.ts): this connection waits for the disk, as production's do.
  await connection`set synchronous_commit = on`
  const [inside] = await connection<Array<{ setting: string }>>`with ${quickCommit(connection)} select current_setting('synchronous_commit') as setting from quick_commit`
  t.equal(inside.setting, 'off', 'off inside the statement')
  const [after] = await connection<Array<{ setting: string }>>`select current_setting('synchronous_commit') as setting`
  t.equal(after.setting, 'on', 'on again for the next statement on the same connection')

  const [ann, bob] = [await registerUser(app), await registerUser(app)]
  const recipe = await createRecipe(app, ann, { title: 'Soup', ingredients: ['water'] })
  const { userId, jti, ver } = app.tokens.verify(bob.token)
  const session = { userId, jti, ver }
  t.match(await likesRepository.apply(connection, recipe.id, [{ session, like: true }]), [{ signedIn: true, changed: true, likeCount: 1 }])
  t.match(await likesRepository.apply(connection, recipe.id, [{ session, like: false }]), [{ signedIn: true, changed: true, likeCount: 0, visible: true }])
  const [later] = await connection<Array<{ setting: string }>>`select current_setting('synchronous_commit') as setting`
  t.equal(later.setting, 'on', 'a like or unlike leaves the connection as it was')
  const [{ likes, likeCount }] = await app.db<Array<{ likes: number, likeCount: number }>>`
    select (select count(*)::int from likes where recipe_id = ${recipe.id}) as likes, like_count from recipes where id = ${recipe.id}`
  t.same({ likes, likeCount }, { likes: 0, likeCount: 0 }, 'committed: row and counter agree')
})
