import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import sharp from 'sharp'
import t from 'tap'
import { bearer, build, createRecipe, eventually, fileForm, gifImage, json, pngImage, registerUser, webpImage, type TestUser } from '../../../helper.js'

async function setAvatar (app: FastifyInstance, user: TestUser, data: Buffer | string, type = 'image/png'): Promise<LightMyRequestResponse> {
  const form = fileForm('avatar', data, type)
  return await app.inject({ method: 'POST', url: '/api/users/avatar', headers: { ...bearer(user), ...form.headers }, payload: form.payload })
}

const fileAt = async (app: FastifyInstance, url: string) => await app.inject({ url: new URL(url).pathname })

async function avatarRows (app: FastifyInstance, userId: string): Promise<number> {
  const [{ n }] = await app.db<Array<{ n: number }>>`select count(*)::int as n from media where user_id = ${userId} and kind = 'avatar'`
  return n
}

t.test('set, show, replace and remove an avatar', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)

  const res = await setAvatar(app, ann, await pngImage(800, 600))
  t.equal(res.statusCode, 200)
  const { user } = json(res)
  t.equal(user.id, ann.id)
  t.equal(user.email, ann.email, 'the own profile')
  t.match(user.avatarUrl, new RegExp(`^${app.config.storage.publicUrl}/uploads/${ann.id}/[a-z0-9]+\\.webp$`))
  const file = await fileAt(app, user.avatarUrl)
  t.equal(file.statusCode, 200)
  const meta = await sharp(file.rawPayload).metadata()
  t.same([meta.format, meta.width, meta.height], ['webp', 512, 512], 'a 512 px square')

  // Everywhere a user appears.
  t.equal(json(await app.inject({ url: `/api/users/${ann.username}` })).user.avatarUrl, user.avatarUrl, 'public profile')
  t.equal((await createRecipe(app, ann)).author.avatarUrl, user.avatarUrl, 'recipe author')
  t.equal(json(await app.inject({ url: '/api/auth/me', headers: bearer(ann) })).user.avatarUrl, user.avatarUrl, 'me')
  t.equal(json(await app.inject({ url: `/api/users/${bob.username}` })).user.avatarUrl, null, 'nobody else\'s changed')

  const same = await setAvatar(app, ann, await pngImage(800, 600))
  t.equal(json(same).user.avatarUrl, user.avatarUrl, 'the same picture again changes nothing')
  t.equal(await avatarRows(app, ann.id), 1)

  const replaced = json(await setAvatar(app, ann, await webpImage(100, 50), 'image/webp')).user.avatarUrl
  t.not(replaced, user.avatarUrl, 'a new picture, a new URL')
  t.same(await sharp((await fileAt(app, replaced)).rawPayload).metadata().then(m => [m.width, m.height]), [50, 50], 'small pictures are cropped, not enlarged')
  await eventually(async () => (await fileAt(app, user.avatarUrl)).statusCode === 404)
  t.pass('the replaced avatar\'s file is removed')
  t.equal(await avatarRows(app, ann.id), 1)

  const removed = await app.inject({ method: 'DELETE', url: '/api/users/avatar', headers: bearer(ann) })
  t.equal(removed.statusCode, 200)
  t.same(json(removed), { message: 'Avatar removed' })
  t.equal(json(await app.inject({ url: '/api/users/profile', headers: bearer(ann) })).user.avatarUrl, null)
  await eventually(async () => (await fileAt(app, replaced)).statusCode === 404)
  t.pass('and its file')
  t.equal(await avatarRows(app, ann.id), 0)
  t.equal((await app.inject({ method: 'DELETE', url: '/api/users/avatar', headers: bearer(ann) })).statusCode, 200, 'removing no avatar is fine')
})

t.test('avatar input: types, signatures, sign-in', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const png = await pngImage(64, 64)

  const gif = await setAvatar(app, ann, await gifImage(), 'image/gif')
  t.equal(gif.statusCode, 415, 'GIF is an upload type but not an avatar type')
  t.same(json(gif).details, ['avatar: must be one of image/jpeg, image/png, image/webp'])
  const text = await setAvatar(app, ann, '<html><script>alert(1)</script></html>', 'image/png')
  t.equal(text.statusCode, 400, 'the magic bytes are checked for avatars too')
  t.equal(json(text).error, 'Invalid image')
  const wrongField = fileForm('image', png, 'image/png')
  t.equal((await app.inject({ method: 'POST', url: '/api/users/avatar', headers: { ...bearer(ann), ...wrongField.headers }, payload: wrongField.payload })).statusCode, 400)
  const json415 = await app.inject({ method: 'POST', url: '/api/users/avatar', headers: bearer(ann), payload: { avatar: 'x' } })
  t.equal(json415.statusCode, 415, 'JSON is not a form')

  const anonymous = fileForm('avatar', png, 'image/png')
  t.equal((await app.inject({ method: 'POST', url: '/api/users/avatar', headers: anonymous.headers, payload: anonymous.payload })).statusCode, 401)
  t.equal((await app.inject({ method: 'DELETE', url: '/api/users/avatar' })).statusCode, 401)

  t.equal(await avatarRows(app, ann.id), 0, 'nothing stored')
  t.equal(json(await app.inject({ url: '/api/users/profile', headers: bearer(ann) })).user.avatarUrl, null)
})

t.test('concurrent avatar uploads leave exactly one avatar', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const answers = await Promise.all(['#100000', '#200000', '#300000', '#100000'].map(async color => await setAvatar(app, ann, await pngImage(120, 90, color))))
  t.same(answers.map(a => a.statusCode), [200, 200, 200, 200])
  t.equal(await avatarRows(app, ann.id), 1, 'one avatar row')
  const current = json(await app.inject({ url: '/api/users/profile', headers: bearer(ann) })).user.avatarUrl
  t.equal((await fileAt(app, current)).statusCode, 200, 'and its file is there')
})
