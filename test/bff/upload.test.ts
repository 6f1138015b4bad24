import sharp from 'sharp'
import t from 'tap'
import { fileForm, json, pngImage, registerUser } from '../helper.js'
import { ORIGIN, startBff } from './helpers.js'

t.test('a browser uploads through the web proxy with its session cookie', async t => {
  const { api, proxy } = await startBff(t)
  const ann = await registerUser(api)
  const form = fileForm('image', await pngImage(900, 600), 'image/png')

  const res = await proxy.inject({
    method: 'POST',
    url: '/bff/api/upload/image',
    headers: { ...form.headers, origin: ORIGIN },
    cookies: { auth_token: ann.token },
    payload: form.payload
  })
  t.equal(res.statusCode, 201, 'the multipart body streams through unchanged')
  const image = json(res)
  t.ok(image.key.startsWith(`uploads/${ann.id}/`), 'stored as the cookie\'s user')
  const stored = await api.inject({ url: new URL(image.url).pathname })
  t.same(await sharp(stored.rawPayload).metadata().then(m => [m.format, m.width, m.height]), ['webp', 900, 600])

  const avatar = fileForm('avatar', await pngImage(300, 300), 'image/png')
  const crossSite = await proxy.inject({
    method: 'POST',
    url: '/bff/api/users/avatar',
    headers: { ...avatar.headers, origin: 'https://evil.example' },
    cookies: { auth_token: ann.token },
    payload: avatar.payload
  })
  t.equal(crossSite.statusCode, 403, 'another site cannot upload with the cookie')
  t.equal(json(await api.inject({ url: `/api/users/${ann.username}` })).user.avatarUrl, null, 'nothing changed')
})
