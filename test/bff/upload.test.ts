import sharp from 'sharp'
import t from 'tap'
import { fileForm, json, pngImage, registerUser } from '../helper.js'
import { ORIGIN, refusingApiUrl, startBff, startProxy } from './helpers.js'

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

t.test('stored images load through the web proxy: reads only, with no credentials sent upstream', async t => {
  const seenHeaders: Array<Record<string, unknown>> = []
  const { api, proxy } = await startBff(t, {
    api: {
      extend: async app => {
        app.addHook('onRequest', async request => {
          if (request.url.startsWith('/uploads/')) seenHeaders.push({ cookie: request.headers.cookie, authorization: request.headers.authorization })
        })
      }
    }
  })
  const ann = await registerUser(api)
  const form = fileForm('image', await pngImage(400, 300), 'image/png')
  const uploaded = await api.inject({ method: 'POST', url: '/api/upload/image', headers: { ...form.headers, authorization: `Bearer ${ann.token}` }, payload: form.payload })
  t.equal(uploaded.statusCode, 201)
  const path = `/${String(json(uploaded).key)}`
  const direct = await api.inject({ url: path })

  const res = await proxy.inject({ url: path, cookies: { auth_token: ann.token }, headers: { authorization: 'Bearer x' } })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-type'], 'image/webp')
  t.ok(res.rawPayload.equals(direct.rawPayload), 'the same bytes as the API sends')
  t.same(seenHeaders.at(-1), { cookie: undefined, authorization: undefined }, 'neither the cookie nor a Bearer header goes upstream')
  const head = await proxy.inject({ method: 'HEAD', url: path })
  t.equal(head.statusCode, 200)
  t.equal(head.headers['content-length'], direct.headers['content-length'])

  t.equal((await proxy.inject({ url: `/uploads/${ann.id}/missing.webp` })).statusCode, 404, 'an unknown file is the API\'s 404')
  const seen = seenHeaders.length
  for (const url of ['/uploads/..%2f..%2fapi/users/me', '/uploads//evil.example/x.webp', '/uploads/%2e%2e/x', `/uploads/${ann.id}/x.png`, '/uploads/a\\b/c.webp']) {
    const refused = await proxy.inject({ url })
    t.equal(refused.statusCode, 404, `404 for ${url}`)
    t.same(json(refused), { error: 'Not found' }, `the usual body for ${url}`)
  }
  const undecodable = await proxy.inject({ url: '/uploads/%zz' })
  t.same([undecodable.statusCode, json(undecodable)], [400, { error: 'Validation error', details: ['path: is not a valid URL'] }], 'a path that does not decode: the API\'s own 400')
  t.equal(seenHeaders.length, seen, 'none of them reached the API')
  for (const method of ['POST', 'PUT', 'DELETE'] as const) {
    const write = await proxy.inject({ method, url: path, headers: { origin: ORIGIN }, cookies: { auth_token: ann.token } })
    t.equal(write.statusCode, 404, `${method} is not passed on`)
  }
  t.equal((await api.inject({ url: path })).statusCode, 200, 'the file is still there')
})

t.test('stored images through the proxy while the API is down: 502 with the usual body', async t => {
  const { proxy } = await startProxy(t, await refusingApiUrl())
  const res = await proxy.inject({ url: '/uploads/someone/file.webp' })
  t.equal(res.statusCode, 502)
  t.same(json(res), { error: 'Service unavailable' })
})
