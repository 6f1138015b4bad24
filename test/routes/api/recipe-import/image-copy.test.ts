// An imported recipe's picture: the page's (or preview's) image address is fetched through the safe fetcher, checked
// and re-encoded as an upload of the importer, and the recipe shows that copy; the address stays as sourceImageUrl.
// Whatever keeps the picture from being copied (refused address, size, type, a slow server) leaves the import
// successful with no image. A preview stores and fetches nothing.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import sharp from 'sharp'
import t, { type Test } from 'tap'
import { IMAGE_LIMITS } from '../../../../lib/images.js'
import { bearer, build, drainJobs, eventually, fileForm, json, pngImage, registerUser, type TestUser } from '../../../helper.js'
import { importSite } from '../../../helpers/import-site.js'

const SITE = await importSite()
const SITE_ALLOWED = { env: SITE.env, share: true }

/** A recipe page whose JSON-LD names `image` (resolved against the page's address). */
const PAGE = (title: string, image: unknown) => `<!doctype html><html lang="en"><head><title>${title}</title>
<script type="application/ld+json">${JSON.stringify({
  '@context': 'https://schema.org',
  '@type': 'Recipe',
  name: title,
  image,
  recipeIngredient: ['2 cups flour', '1 tsp salt'],
  recipeInstructions: [{ '@type': 'HowToStep', text: 'Mix everything.' }, { '@type': 'HowToStep', text: 'Bake for an hour.' }]
})}</script></head><body><h1>${title}</h1></body></html>`

type Handler = (res: ServerResponse, req: IncomingMessage) => void
const html = (body: string): Handler => res => { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body) }
const file = (data: Buffer | string, type: string): Handler => res => {
  res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(data) }).end(data)
}
const redirect = (location: string): Handler => res => { res.writeHead(302, { location }).end() }

/** This test's paths on the file's local web site, and every path it was asked for. */
async function site (t: Test, routes: Record<string, Handler>): Promise<{ url: (path: string) => string, hits: string[] }> {
  const hits: string[] = []
  SITE.use(t, (req, res) => {
    const path = (req.url ?? '').split('?')[0]
    hits.push(path)
    const handler = routes[path]
    if (handler == null) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    else handler(res, req)
  })
  return { url: path => `${SITE.origin}${path}`, hits }
}

const post = async (app: FastifyInstance, user: TestUser, route: string, payload: Record<string, unknown>) =>
  await app.inject({ method: 'POST', url: `/api/recipe-import/${route}`, headers: bearer(user), payload })

/** The URL of one of `user`'s stored uploads. */
const ownUpload = (app: FastifyInstance, user: TestUser) =>
  new RegExp(`^${app.config.storage.publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/uploads/${user.id}/[A-Za-z0-9_-]+\\.webp$`)
/** The stored file behind a URL (local storage serves /uploads/... itself). */
const served = async (app: FastifyInstance, url: string) => await app.inject({ url: new URL(url).pathname })
async function uploadImage (app: FastifyInstance, user: TestUser, image: Buffer): Promise<{ key: string, url: string }> {
  const form = fileForm('image', image, 'image/png')
  const res = await app.inject({ method: 'POST', url: '/api/upload/image', headers: { ...bearer(user), ...form.headers }, payload: form.payload })
  if (res.statusCode !== 201) throw new Error(res.body)
  return json(res)
}
/** The user's uploads, as their data export lists them. */
const uploads = async (app: FastifyInstance, user: TestUser): Promise<Array<{ key: string, url: string }>> =>
  json(await app.inject({ url: '/api/gdpr/export', headers: bearer(user) })).media

t.test('a page\'s picture is stored as the importer\'s upload and shown from there; its address is kept as sourceImageUrl', async t => {
  const app = await build(t, SITE_ALLOWED)
  const ann = await registerUser(app)
  const pages = await site(t, {
    '/pie': html(PAGE('Apple Pie', { '@type': 'ImageObject', url: '/images/pie.png' })),
    '/images/pie.png': file(await pngImage(640, 480), 'image/png')
  })
  const address = pages.url('/images/pie.png')

  const preview = await post(app, ann, 'preview', { url: pages.url('/pie') })
  t.equal(preview.statusCode, 200, preview.body)
  t.equal(json(preview).preview.imageUrl, address, 'a preview shows the page\'s own address')
  t.notOk(pages.hits.includes('/images/pie.png'), 'and fetches no picture')
  t.same(await uploads(app, ann), [], 'nor stores one')

  const res = await post(app, ann, 'from-url', { url: pages.url('/pie'), saveAsDraft: false })
  t.equal(res.statusCode, 201, res.body)
  const recipe = json(res).recipe
  t.match(recipe.imageUrl, ownUpload(app, ann), 'the image is one of the importer\'s uploads')
  t.equal(recipe.sourceImageUrl, address, 'the page\'s address is kept')
  t.equal(recipe.sourceUrl, pages.url('/pie'))
  t.equal(pages.hits.filter(hit => hit === '/images/pie.png').length, 1, 'fetched once')

  const stored = await served(app, recipe.imageUrl)
  t.equal(stored.statusCode, 200)
  t.equal(stored.headers['content-type'], 'image/webp')
  const meta = await sharp(stored.rawPayload).metadata()
  t.same([meta.format, meta.width, meta.height], ['webp', 640, 480], 'the bytes are the picture, re-encoded as WebP')

  const anonymous = json(await app.inject({ url: `/api/recipes/${recipe.id as string}` })).recipe
  t.match(anonymous, { imageUrl: recipe.imageUrl, sourceImageUrl: address }, 'everyone sees the copy and the credit')
  const listed = json(await app.inject({ url: `/api/users/${ann.username}/recipes` }))
  t.match(listed.recipes, [{ id: recipe.id, imageUrl: recipe.imageUrl, sourceImageUrl: address }], 'lists too')

  const mine = await uploads(app, ann)
  t.same(mine.map(upload => upload.url), [recipe.imageUrl], 'it is one of the importer\'s uploads')
  const exported = json(await app.inject({ url: '/api/gdpr/export', headers: bearer(ann) })).recipes
  t.match(exported, [{ id: recipe.id, imageUrl: recipe.imageUrl, sourceImageUrl: address }], 'and in their export')

  // Like any upload of theirs, they may delete it: the recipe loses its picture and keeps the credit.
  const removed = await app.inject({ method: 'DELETE', url: `/api/upload/image/${mine[0].key}`, headers: bearer(ann) })
  t.equal(removed.statusCode, 200, removed.body)
  t.match(json(await app.inject({ url: `/api/recipes/${recipe.id as string}`, headers: bearer(ann) })).recipe, { imageUrl: null, sourceImageUrl: address })
  t.equal((await served(app, recipe.imageUrl)).statusCode, 404)
})

t.test('deleting the importer\'s data removes the copy', async t => {
  const app = await build(t, SITE_ALLOWED)
  const ann = await registerUser(app)
  const pages = await site(t, { '/stew': html(PAGE('Stew', '/stew.png')), '/stew.png': file(await pngImage(), 'image/png') })
  const recipe = json(await post(app, ann, 'from-url', { url: pages.url('/stew') })).recipe
  t.match(recipe.imageUrl, ownUpload(app, ann))
  t.equal((await served(app, recipe.imageUrl)).statusCode, 200)

  const { requestId } = json(await app.inject({ method: 'POST', url: '/api/data-deletion', headers: bearer(ann), payload: { deleteType: 'data' } }))
  await eventually(async () => json(await app.inject(`/api/data-deletion/status/${requestId as string}`)).request?.status === 'completed', 30_000)
  await drainJobs(app)
  t.equal((await served(app, recipe.imageUrl)).statusCode, 404, 'the stored copy is gone')
  t.same(await uploads(app, ann), [])
})

t.test('a picture that cannot be copied leaves the import successful without one (never the outside address)', async t => {
  const app = await build(t, SITE_ALLOWED)
  // Another loopback server: not an allowed origin, so no import may reach it.
  const otherHits: string[] = []
  const other = createServer((req, res) => { otherHits.push(req.url ?? ''); res.writeHead(200, { 'content-type': 'image/png' }).end() })
  await new Promise<void>(resolve => other.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { other.closeAllConnections(); other.close() })
  const otherPort = (other.address() as AddressInfo).port

  const png = await pngImage()
  const cases: Record<string, [string, Handler]> = {
    'declared larger than an upload may be': ['/declared-big.png', res => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(IMAGE_LIMITS.bytes + 1) })
      res.write(png)
    }],
    'larger than an upload may be, without a length': ['/streamed-big.png', res => {
      res.writeHead(200, { 'content-type': 'image/png' })
      res.write(png)
      res.end(Buffer.alloc(IMAGE_LIMITS.bytes + 1 - png.length))
    }],
    'a page, not an image': ['/not-an-image', html('<html><body>hello</body></html>')],
    'an SVG': ['/drawing.svg', file('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'image/svg+xml')],
    'markup claiming to be a PNG': ['/liar.png', file('<html><script>alert(1)</script></html>', 'image/png')],
    'a PNG with markup appended': ['/polyglot.png', file(Buffer.concat([png, Buffer.from('<script>alert(1)</script>')]), 'application/octet-stream')],
    'a missing image': ['/missing.png', res => { res.writeHead(404, { 'content-type': 'text/plain' }).end('gone') }],
    'a redirect to another loopback port': ['/to-loopback.png', redirect(`http://127.0.0.1:${otherPort}/image.png`)],
    'a redirect to the metadata address': ['/to-metadata.png', redirect('http://169.254.169.254/latest/meta-data/')],
    'a redirect to another scheme': ['/to-file.png', redirect('file:///etc/passwd')]
  }
  const routes: Record<string, Handler> = {}
  for (const [name, [path, handler]] of Object.entries(cases)) {
    routes[path] = handler
    routes[`/page-${name.replace(/\W+/g, '-')}`] = html(PAGE(`Dish with ${name}`, path))
  }
  const pages = await site(t, routes)

  for (const [name, [path]] of Object.entries(cases)) {
    const user = await registerUser(app)
    const res = await post(app, user, 'from-url', { url: pages.url(`/page-${name.replace(/\W+/g, '-')}`) })
    t.equal(res.statusCode, 201, `${name}: ${res.body}`)
    t.match(json(res).recipe, { title: `Dish with ${name}`, imageUrl: null, sourceImageUrl: pages.url(path) }, `${name}: no image, the address kept`)
    t.same(await uploads(app, user), [], `${name}: nothing stored`)
  }
  t.same(otherHits, [], 'a refused redirect target receives nothing')
})

t.test('a server slower than the image deadline leaves the import without a picture', async t => {
  const app = await build(t, { env: { ...SITE.env, IMPORT_IMAGE_TIMEOUT_MS: '300' }, share: true })
  const pages = await site(t, {
    '/silent': html(PAGE('Silent dish', '/silent.png')),
    '/silent.png': () => {}, // never answers
    '/dripping': html(PAGE('Dripping dish', '/dripping.png')),
    '/dripping.png': res => { res.writeHead(200, { 'content-type': 'image/png', 'content-length': '5000' }).write(Buffer.alloc(10)) } // never finishes
  })
  for (const name of ['silent', 'dripping']) {
    const user = await registerUser(app)
    const res = await post(app, user, 'from-url', { url: pages.url(`/${name}`) })
    t.equal(res.statusCode, 201, res.body)
    t.match(json(res).recipe, { imageUrl: null, sourceImageUrl: pages.url(`/${name}.png`) }, `${name}: no image`)
    t.same(await uploads(app, user), [])
  }
})

t.test('from-preview copies an outside imageUrl; one of your uploads is used as it is, someone else\'s is refused', async t => {
  const app = await build(t, SITE_ALLOWED)
  const [ann, bob] = [await registerUser(app), await registerUser(app)]
  const pages = await site(t, { '/photo.jpg': file(await sharp(await pngImage(300, 200)).jpeg().toBuffer(), 'image/jpeg') })
  const base = { title: 'Hand-made toast', ingredients: ['2 slices bread'], instructions: ['Toast it.'] }

  const copied = await post(app, ann, 'from-preview', { preview: { ...base, imageUrl: pages.url('/photo.jpg') } })
  t.equal(copied.statusCode, 201, copied.body)
  const recipe = json(copied).recipe
  t.match(recipe, { imageUrl: ownUpload(app, ann), sourceImageUrl: pages.url('/photo.jpg') })
  const meta = await sharp((await served(app, recipe.imageUrl)).rawPayload).metadata()
  t.same([meta.format, meta.width, meta.height], ['webp', 300, 200])

  const again = await post(app, ann, 'from-preview', { preview: { ...base, imageUrl: pages.url('/photo.jpg') } })
  t.equal(again.statusCode, 200, 'the same preview again is a repeat')
  t.equal(json(again).recipe.id, recipe.id)
  t.equal((await uploads(app, ann)).length, 1, 'and stores nothing more')

  const upload = await uploadImage(app, ann, await pngImage(50, 50, '#123456'))
  const hits = pages.hits.length
  const own = await post(app, ann, 'from-preview', { preview: { ...base, title: 'With my photo', imageUrl: upload.url } })
  t.equal(own.statusCode, 201, own.body)
  t.match(json(own).recipe, { imageUrl: upload.url, sourceImageUrl: null }, 'your own upload is kept as it is')
  t.equal(pages.hits.length, hits, 'nothing fetched')
  t.equal((await uploads(app, ann)).length, 2, 'no copy of it')

  const others = await post(app, bob, 'from-preview', { preview: { ...base, title: 'With her photo', imageUrl: upload.url } })
  t.equal(others.statusCode, 400, others.body)
  t.match(json(others), { success: false, error: 'Validation error', details: ['imageUrl: is not one of your uploaded images'] })
  t.same(await uploads(app, bob), [])
})

t.test('a page showing one of our files: the importer\'s own is kept, anyone else\'s is copied like an outside picture', async t => {
  const app = await build(t, SITE_ALLOWED)
  const [ann, bob] = [await registerUser(app), await registerUser(app)]
  const upload = await uploadImage(app, ann, await pngImage(60, 40, '#654321'))
  const pages = await site(t, { '/ours': html(PAGE('Our picture', upload.url)) })

  const hers = await post(app, ann, 'from-url', { url: pages.url('/ours') })
  t.equal(hers.statusCode, 201, hers.body)
  t.match(json(hers).recipe, { imageUrl: upload.url, sourceImageUrl: null })
  // The test storage's address is this machine's loopback, which the import may not reach: no copy, no failure.
  const his = await post(app, bob, 'from-url', { url: pages.url('/ours') })
  t.equal(his.statusCode, 201, his.body)
  t.match(json(his).recipe, { imageUrl: null, sourceImageUrl: upload.url })
})

t.test('a repeat whose picture changed meanwhile answers the first recipe and keeps no second copy', async t => {
  const app = await build(t, SITE_ALLOWED)
  const ann = await registerUser(app)
  let picture = await pngImage(80, 60, '#aa0000')
  const pages = await site(t, { '/soup': html(PAGE('Soup', '/soup.png')), '/soup.png': (res, req) => { file(picture, 'image/png')(res, req) } })

  const first = json(await post(app, ann, 'from-url', { url: pages.url('/soup') })).recipe
  t.match(first.imageUrl, ownUpload(app, ann))
  picture = await pngImage(80, 60, '#00aa00')
  const repeat = await post(app, ann, 'from-url', { url: pages.url('/soup') })
  t.equal(repeat.statusCode, 200, repeat.body)
  t.match(json(repeat).recipe, { id: first.id, imageUrl: first.imageUrl })
  t.equal(pages.hits.filter(hit => hit === '/soup.png').length, 2, 'the new picture was fetched')
  t.same((await uploads(app, ann)).map(upload => upload.url), [first.imageUrl], 'and its copy removed again')
})
