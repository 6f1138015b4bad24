import { readdir } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import sharp from 'sharp'
import t from 'tap'
import {
  bearer, build, createRecipe, fileForm, gifImage, jpegWithExif, json, multipart, pngHeaderClaiming, pngImage,
  registerUser, webpImage, type TestUser
} from '../../../helper.js'

const KEY = /^uploads\/[A-Za-z0-9_-]+\/[a-z0-9]+\.webp$/

async function upload (app: FastifyInstance, user: TestUser, form: { payload: Buffer, headers: Record<string, string> }): Promise<LightMyRequestResponse> {
  return await app.inject({ method: 'POST', url: '/api/upload/image', headers: { ...bearer(user), ...form.headers }, payload: form.payload })
}

const deleteImage = async (app: FastifyInstance, user: TestUser, key: string) =>
  await app.inject({ method: 'DELETE', url: `/api/upload/image/${key}`, headers: bearer(user) })

/** The files in the user's upload folder (local storage). */
async function storedFiles (app: FastifyInstance, userId: string): Promise<string[]> {
  return await readdir(path.join(app.config.storage.localDir, userId)).catch(() => [])
}

async function mediaRows (app: FastifyInstance, userId: string): Promise<number> {
  const [{ n }] = await app.db<Array<{ n: number }>>`select count(*)::int as n from media where user_id = ${userId}`
  return n
}

/** The served file at a returned URL (local storage serves /uploads/... itself). */
const served = async (app: FastifyInstance, url: string, headers: Record<string, string> = {}) =>
  await app.inject({ url: new URL(url).pathname, headers })

t.test('upload, serve, upload the same bytes again, delete', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const form = fileForm('image', await pngImage(3000, 1000), 'image/png')

  const res = await upload(app, ann, form)
  t.equal(res.statusCode, 201)
  const image = json(res)
  t.match(image.key, KEY)
  t.ok(image.key.startsWith(`uploads/${ann.id}/`), 'stored under the uploader\'s folder')
  t.equal(image.url, `${app.config.storage.publicUrl}/${image.key}`)
  t.same({ width: image.width, height: image.height, contentType: image.contentType }, { width: 2048, height: 683, contentType: 'image/webp' }, 'resized to 2048 px, WebP')

  const file = await served(app, image.url)
  t.equal(file.statusCode, 200)
  t.equal(file.headers['content-type'], 'image/webp')
  t.equal(file.headers['x-content-type-options'], 'nosniff')
  t.equal(file.headers['cache-control'], 'public, max-age=31536000, immutable')
  t.equal(file.headers['cross-origin-resource-policy'], 'cross-origin', 'embeddable by the web app')
  t.equal(file.rawPayload.length, image.size)
  const meta = await sharp(file.rawPayload).metadata()
  t.same([meta.format, meta.width, meta.height], ['webp', 2048, 683], 'the bytes are the WebP described')
  t.equal((await served(app, image.url, { 'if-none-match': String(file.headers.etag) })).statusCode, 304, 'revalidation is free')

  const again = await upload(app, ann, form)
  t.equal(again.statusCode, 200, 'the same bytes again answer the earlier upload')
  t.same(json(again), image)
  t.equal(await mediaRows(app, ann.id), 1)
  t.equal((await storedFiles(app, ann.id)).length, 1, 'stored once')

  const removed = await deleteImage(app, ann, image.key)
  t.equal(removed.statusCode, 200)
  t.same(json(removed), { message: 'Image deleted' })
  t.equal((await served(app, image.url)).statusCode, 404, 'the file is gone')
  t.same(await storedFiles(app, ann.id), [])
  t.equal(await mediaRows(app, ann.id), 0)
  const twice = await deleteImage(app, ann, image.key)
  t.equal(twice.statusCode, 404)
  t.same(json(twice), { error: 'Image not found' })

  t.equal((await upload(app, ann, form)).statusCode, 201, 'after a delete the same bytes are a new upload')
})

t.test('re-encoding: upright, no metadata, every allowed type becomes WebP', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const original = await jpegWithExif(300, 200)
  t.match(original.toString('latin1'), /Secret Camera Owner/, 'the original carries EXIF')

  const res = await upload(app, ann, fileForm('image', original, 'image/jpeg', 'camera.jpg'))
  t.equal(res.statusCode, 201)
  t.same([json(res).width, json(res).height], [200, 300], 'EXIF orientation 6 applied: the landscape file is stored portrait')
  const stored = (await served(app, json(res).url)).rawPayload
  const meta = await sharp(stored).metadata()
  t.equal(meta.exif, undefined, 'no EXIF block')
  t.equal(meta.orientation, undefined)
  t.notMatch(stored.toString('latin1'), /Secret Camera Owner|GPS/, 'neither owner nor position survive')

  for (const [type, data] of [['image/gif', await gifImage()], ['image/webp', await webpImage()], ['IMAGE/PNG', await pngImage(10, 10)]] as const) {
    const typed = await upload(app, ann, fileForm('image', data, type))
    t.equal(typed.statusCode, 201, `${type} accepted`)
    t.equal(json(typed).contentType, 'image/webp')
  }
  t.same([json(await upload(app, ann, fileForm('image', await pngImage(100, 80), 'image/png'))).width], [100], 'small images are not enlarged')
})

t.test('bad input: a clear 4xx, never a 500, nothing stored', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const png = await pngImage(64, 48)
  const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
  const tenMegabytes = 10 * 1024 * 1024
  const padded = (size: number) => Buffer.concat([png, Buffer.alloc(size - png.length, 0x41)])

  const cases: Array<[string, { payload: Buffer | string, headers: Record<string, string> }, number, string, RegExp?]> = [
    ['text sent as image/png', fileForm('image', 'just some text, not a picture', 'image/png'), 400, 'Invalid image', /content is not image\/png/],
    ['HTML sent as image/png', fileForm('image', '<!doctype html><html><body><script>alert(1)</script></body></html>', 'image/png'), 400, 'Invalid image'],
    ['SVG with script', fileForm('image', svg, 'image/svg+xml', 'x.svg'), 415, 'Unsupported image type', /image\/jpeg, image\/png, image\/webp, image\/gif/],
    ['SVG sent as image/png', fileForm('image', svg, 'image/png'), 400, 'Invalid image'],
    ['a PNG followed by a script (polyglot)', fileForm('image', Buffer.concat([png, Buffer.from('<script>alert(document.cookie)</script>')]), 'image/png'), 400, 'Invalid image', /embedded markup/],
    ['a PNG sent as image/jpeg', fileForm('image', png, 'image/jpeg'), 400, 'Invalid image', /content is not image\/jpeg/],
    ['a truncated PNG', fileForm('image', (await pngImage(400, 300, '#123456')).subarray(0, 300), 'image/png'), 400, 'Invalid image', /truncated/],
    ['a truncated JPEG', fileForm('image', (await jpegWithExif()).subarray(0, 900), 'image/jpeg'), 400, 'Invalid image', /could not be decoded/],
    ['a 50000x50000 PNG header', fileForm('image', pngHeaderClaiming(50_000, 50_000), 'image/png'), 400, 'Invalid image', /megapixels/],
    ['10 MB + 1 byte', fileForm('image', padded(tenMegabytes + 1), 'image/png'), 413, 'Payload too large'],
    ['exactly 10 MB: a PNG with data after its end', fileForm('image', padded(tenMegabytes), 'image/png'), 400, 'Invalid image', /data after the end of the image/],
    ['a GIF with data after its end', fileForm('image', Buffer.concat([await gifImage(), Buffer.from('PK\u0003\u0004zip')]), 'image/gif'), 400, 'Invalid image', /data after the end/],
    ['an empty file', fileForm('image', '', 'image/png'), 400, 'Validation error'],
    ['a file name with ../', fileForm('image', png, 'image/png', '../../etc/passwd.png'), 400, 'Validation error', /file name/],
    ['a file name with NUL', fileForm('image', png, 'image/png', 'a\u0000b.png'), 400, 'Validation error', /file name/],
    ['a file name with a backslash path', fileForm('image', png, 'image/png', 'C:\\Users\\x.png'), 400, 'Validation error', /file name/],
    // CR/LF ends the header line early: what follows is read as the part's Content-Type.
    ['a file name with CR/LF', fileForm('image', png, 'image/png', 'a.png\r\nContent-Type: text/html'), 415, 'Unsupported image type'],
    ['no file at all', multipart([{ name: 'title', data: 'hello' }]), 400, 'Validation error', /image: is required/],
    ['an empty form', multipart([]), 400, 'Validation error'],
    ['two files', multipart([{ name: 'image', filename: 'a.png', type: 'image/png', data: png }, { name: 'image', filename: 'b.png', type: 'image/png', data: png }]), 400, 'Validation error', /exactly one file/],
    ['the wrong field name', fileForm('file', png, 'image/png'), 400, 'Validation error', /exactly one file, in the .+image.+ field/],
    ['JSON instead of a form', { payload: JSON.stringify({ image: png.toString('base64') }), headers: { 'content-type': 'application/json' } }, 415, 'Unsupported media type'],
    ['multipart without a boundary', { payload: 'x', headers: { 'content-type': 'multipart/form-data' } }, 400, 'Validation error'],
    ['a form cut off mid-file', (() => { const f = fileForm('image', png, 'image/png'); return { ...f, payload: f.payload.subarray(0, f.payload.length - 60) } })(), 400, 'Validation error']
  ]
  for (const [name, form, status, error, detail] of cases) {
    const res = await app.inject({ method: 'POST', url: '/api/upload/image', headers: { ...bearer(ann), ...form.headers }, payload: form.payload })
    t.equal(res.statusCode, status, `${name}: ${status} (${res.body})`)
    t.equal(json(res).error, error, `${name}: ${error}`)
    if (detail != null) t.match(JSON.stringify(json(res).details), detail, `${name}: details say why`)
  }
  t.equal(await mediaRows(app, ann.id), 0, 'no row')
  t.same(await storedFiles(app, ann.id), [], 'no file')

  const anonymous = fileForm('image', png, 'image/png')
  t.equal((await app.inject({ method: 'POST', url: '/api/upload/image', headers: anonymous.headers, payload: anonymous.payload })).statusCode, 401)
})

t.test('delete: only keys under your own folder', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const { key, url } = json(await upload(app, ann, fileForm('image', await pngImage(), 'image/png')))
  const file = key.split('/')[2]

  const attempts = [
    key,
    `uploads/${bob.id}/../${ann.id}/${file}`,
    `uploads/${bob.id}/%2e%2e/${ann.id}/${file}`,
    `uploads/${bob.id}/%252e%252e/${ann.id}/${file}`,
    `uploads/${bob.id}/..%2f${ann.id}%2f${file}`,
    `uploads/${bob.id}/..%5c${ann.id}%5c${file}`,
    `uploads%2f${ann.id}%2f${file}`,
    `${ann.id}/${file}`,
    `uploads/${bob.id}x/${file}`
  ]
  for (const attempt of attempts) {
    const res = await deleteImage(app, bob, attempt)
    t.equal(res.statusCode, 403, `403 for ${attempt}`)
    t.same(json(res), { error: 'Not authorized to delete this image' })
  }
  t.equal((await served(app, url)).statusCode, 200, 'the file is still there')
  t.equal(await mediaRows(app, ann.id), 1)

  t.equal((await deleteImage(app, bob, `uploads/${bob.id}/${file}`)).statusCode, 404, 'a well-formed key of your own that does not exist: 404')
  t.equal((await app.inject({ method: 'DELETE', url: `/api/upload/image/${key}` })).statusCode, 401)

  // The avatar is managed by its own routes.
  const avatar = fileForm('avatar', await pngImage(80, 80, '#00ff00'), 'image/png')
  const avatarUrl: string = json(await app.inject({ method: 'POST', url: '/api/users/avatar', headers: { ...bearer(ann), ...avatar.headers }, payload: avatar.payload })).user.avatarUrl
  t.equal((await deleteImage(app, ann, avatarUrl.slice(avatarUrl.indexOf('uploads/')))).statusCode, 404, 'an avatar is not an image upload')
})

t.test('serving: only stored keys, nothing else of the disk', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const { key } = json(await upload(app, ann, fileForm('image', await pngImage(), 'image/png')))
  for (const url of [
    `/uploads/${ann.id}/..%2f..%2fsecrets.json`, `/uploads/${ann.id}/x.png`, '/uploads/..%2f..%2f/secrets.json',
    `/uploads/${ann.id}/nosuchfile.webp`, `/uploads/${key}`, '/uploads/secrets.json'
  ]) {
    const res = await app.inject({ url })
    t.equal(res.statusCode, 404, `404 for ${url}`)
    t.notMatch(res.body, /jwtSecret/)
  }
})

t.test('a recipe\'s imageUrl: your own uploads or any outside URL', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const image = json(await upload(app, ann, fileForm('image', await pngImage(), 'image/png')))

  t.equal((await createRecipe(app, ann, { imageUrl: image.key })).imageUrl, image.url, 'a key is stored as its URL')
  const withUrl = await createRecipe(app, ann, { imageUrl: image.url })
  t.equal(withUrl.imageUrl, image.url)
  t.equal((await createRecipe(app, ann, { imageUrl: `${image.url}?size=large` })).imageUrl, image.url, 'your own URL is stored canonical')
  t.equal((await createRecipe(app, ann, { imageUrl: 'https://cdn.example.com/cake.jpg' })).imageUrl, 'https://cdn.example.com/cake.jpg')

  for (const [who, value, why] of [
    [bob, image.key, 'another user\'s key'],
    [bob, image.url, 'another user\'s URL'],
    [ann, `uploads/${ann.id}/nosuchimage.webp`, 'a key never uploaded'],
    [ann, `${app.config.storage.publicUrl}/uploads/${ann.id}/nosuchimage.webp`, 'a URL never uploaded'],
    [bob, `${image.url}?x=1`, 'another user\'s URL with a query'],
    [bob, `${image.url}#x`, 'another user\'s URL with a fragment'],
    [bob, image.url.replace('/uploads/', '/uploads//'), 'another user\'s URL with a doubled slash'],
    [bob, image.url.replace('/uploads/', `/uploads/${bob.id}/../`), 'another user\'s URL through a dot segment'],
    [bob, image.url.replace('/uploads/', '/%75ploads/'), 'another user\'s URL with an escape'],
    [ann, `${app.config.storage.publicUrl}/uploads/${ann.id}/x.png`, 'under storage but no stored key']
  ] as const) {
    const res = await app.inject({ method: 'POST', url: '/api/recipes', headers: bearer(who), payload: { title: 'x', ingredients: ['y'], imageUrl: value } })
    t.equal(res.statusCode, 400, why)
    t.same(json(res).details, ['imageUrl: is not one of your uploaded images'])
  }
  const patched = await app.inject({ method: 'PATCH', url: `/api/recipes/${withUrl.id}`, headers: bearer(bob), payload: { imageUrl: image.key } })
  t.equal(patched.statusCode, 403, `and nobody but the author changes the recipe anyway (${patched.body})`)

  t.equal((await deleteImage(app, ann, image.key)).statusCode, 200)
  const after = json(await app.inject({ url: `/api/recipes/${withUrl.id}` })).recipe
  t.equal(after.imageUrl, null, 'deleting the image clears it from the recipes that showed it')
})

t.test('concurrent uploads: the same bytes stored once, distinct ones all stored', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const same = fileForm('image', await pngImage(500, 400, '#abcdef'), 'image/png')
  const answers = await Promise.all(Array.from({ length: 6 }, async () => await upload(app, ann, same)))
  t.same(answers.map(a => a.statusCode).filter(s => s !== 200 && s !== 201), [], 'all succeed')
  t.equal(answers.filter(a => a.statusCode === 201).length, 1, 'one of them created it')
  t.equal(new Set(answers.map(a => json(a).key)).size, 1, 'all answer the same key')
  t.equal(await mediaRows(app, ann.id), 1)
  t.equal((await storedFiles(app, ann.id)).length, 1, 'the losers\' files were removed')

  const distinct = await Promise.all(['#111111', '#222222', '#333333', '#444444'].map(async color =>
    await upload(app, ann, fileForm('image', await pngImage(200, 100, color), 'image/png'))))
  t.same(distinct.map(a => a.statusCode), [201, 201, 201, 201])
  t.equal(await mediaRows(app, ann.id), 5)
})

t.test('a file whose row cannot be written is removed; the upload limit is exact', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  await app.db.unsafe(`
    create function refuse_media() returns trigger language plpgsql as $$ begin raise exception 'disk full'; end $$;
    create trigger refuse_media before insert on media for each row execute function refuse_media()`)
  const failed = await upload(app, ann, fileForm('image', await pngImage(), 'image/png'))
  t.equal(failed.statusCode, 500)
  t.same(json(failed), { error: 'Internal server error' }, 'nothing of the database error reaches the client')
  t.same(await storedFiles(app, ann.id), [], 'the written file was removed again')
  await app.db.unsafe('drop trigger refuse_media on media; drop function refuse_media()')

  // At the limit (rows made directly: a thousand real uploads would only slow the suite).
  await app.db`
    insert into media (id, user_id, kind, key, content_type, width, height, size, source_hash)
    select 'seed' || i, ${ann.id}, 'image', 'uploads/' || ${ann.id} || '/seed' || i || '.webp', 'image/webp', 1, 1, 1, md5(i::text)
    from generate_series(1, 1000) i`
  const over = await upload(app, ann, fileForm('image', await pngImage(30, 30, '#fedcba'), 'image/png'))
  t.equal(over.statusCode, 403)
  t.same(json(over), { error: 'Upload limit reached', limit: 1000 })
  await app.db`delete from media where id = 'seed1'`
  t.equal((await upload(app, ann, fileForm('image', await pngImage(30, 30, '#fedcba'), 'image/png'))).statusCode, 201, 'one freed, one more fits')
})

t.test('the document describes the upload form and the key parameter', async t => {
  const app = await build(t)
  const doc = json(await app.inject('/api/docs/json'))
  const post = doc.paths['/api/upload/image'].post
  const body = doc.components.schemas[post.requestBody.content['multipart/form-data'].schema.$ref.split('/').pop()]
  t.same(body.required, ['image'])
  t.equal(body.properties.image.format, 'binary')
  t.same(Object.keys(post.responses).sort(), ['200', '201', '400', '401', '403', '413', '415', '429', '500', '503', '507'])
  const remove = doc.paths['/api/upload/image/{key}'].delete
  t.same(remove.parameters.map((p: { name: string, in: string }) => `${p.in}:${p.name}`), ['path:key'])
  t.ok(doc.paths['/uploads/{userId}/{fileName}'].get.responses['200'].content['image/webp'])
})
