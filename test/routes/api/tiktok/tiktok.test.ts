// Video import from TikTok (/api/tiktok): preview and import of a post (the rehydration JSON and the older SIGI_STATE
// shape), short links followed hop by hop on TikTok's hosts only, captured pages, the repeat and duplicate rules, the
// gate (sign-in, flag, allowance), refusals and 422s with their reasons, and the size bounds of pages and subtitles.
// A local server plays TikTok (platforms.ts); nothing reaches the internet.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import sharp from 'sharp'
import t, { type Test } from 'tap'
import { adminBearer, bearer, build, createAdmin, eventually, json, registerUser, type TestUser } from '../../../helper.js'
import {
  GARLIC_PASTA_CAPTION, INGREDIENTS_ONLY_CAPTION, sigiPage, TIKTOK_COVER, TIKTOK_ID, TIKTOK_SUBTITLE, tiktokPage, tiktokUnavailablePage,
  type TikTokItem
} from '../../../fixtures/video/pages.js'
import { file, html, platformSite, redirect, status, type Handler } from './platforms.js'

const SITE = await platformSite()
const APP = { env: SITE.env, share: true }
const VTT = readFileSync(new URL('../../../fixtures/video/garlic-pasta.vtt', import.meta.url), 'utf8')
const COVER = await sharp({ create: { width: 72, height: 128, channels: 3, background: '#e67e22' } }).jpeg().toBuffer()

const VIDEO_PATH = `/@chef.jo/video/${TIKTOK_ID}`
const VIDEO_URL = `https://www.tiktok.com${VIDEO_PATH}`
const pathOf = (url: string) => { const u = new URL(url); return `${u.pathname}${u.search}` }
const SUBTITLE_PATH = pathOf(TIKTOK_SUBTITLE)
const COVER_PATH = pathOf(TIKTOK_COVER)

const item = (extra: Partial<TikTokItem> = {}): TikTokItem => ({
  id: TIKTOK_ID, handle: 'chef.jo', nickname: 'Chef Jo', desc: GARLIC_PASTA_CAPTION, subtitles: [{ url: TIKTOK_SUBTITLE, language: 'eng-US' }], ...extra
})
/** The post's page, its subtitles and its cover, plus `extra` routes. */
const tiktok = (t: Test, page: string, extra: Record<string, Handler> = {}) => SITE.serve(t, {
  [VIDEO_PATH]: html(page),
  [SUBTITLE_PATH]: file(VTT, 'text/vtt'),
  [COVER_PATH]: file(COVER, 'image/jpeg'),
  ...extra
})

const post = async (app: FastifyInstance, user: TestUser | null, route: 'preview' | 'import', payload: Record<string, unknown>) =>
  await app.inject({ method: 'POST', url: `/api/tiktok/${route}`, headers: user == null ? {} : bearer(user), payload })
const importsUsed = async (app: FastifyInstance, user: TestUser) =>
  json(await app.inject({ method: 'GET', url: '/api/subscriptions/me', headers: bearer(user) })).usage.imports.used
const logs = async (app: FastifyInstance, user: TestUser, count: number) => await eventually(async () => {
  const rows = await app.db`select source, mode, status, method, error, url from import_logs where user_id = ${user.id} order by created_at`
  return rows.length >= count ? rows : null
})

t.test('preview reads a TikTok post: the caption as a recipe, the video\'s facts, hashtags as tags; nothing is spent', async t => {
  const app = await build(t, APP)
  const hits = tiktok(t, tiktokPage(item()))
  const ann = await registerUser(app)
  const res = await post(app, ann, 'preview', { url: `${VIDEO_URL}?is_from_webapp=1&sender_device=pc` })
  t.equal(res.statusCode, 200, res.body)
  const body = json(res)
  t.equal(body.success, true)
  t.same(body.video, {
    platform: 'tiktok',
    id: TIKTOK_ID,
    url: VIDEO_URL,
    author: '@chef.jo',
    caption: GARLIC_PASTA_CAPTION,
    thumbnailUrl: TIKTOK_COVER,
    durationSeconds: 42
  })
  t.match(body.preview, { title: 'Creamy garlic butter pasta 🍝 ready in 15 minutes!', author: '@chef.jo', sourceUrl: VIDEO_URL, imageUrl: TIKTOK_COVER })
  t.match(body.preview.description, /^From a TikTok video by @chef\.jo \(Chef Jo\)\./)
  t.same(body.preview.ingredients.map((i: { text: string }) => i.text), ['200g spaghetti', '3 cloves garlic, minced', '2 tbsp butter', '100ml cream', 'Parmesan to taste'])
  t.match(body.preview.ingredients[0], { name: 'spaghetti', quantity: 200 })
  t.same(body.preview.instructions.map((s: { text: string }) => s.text), ['Boil the pasta in salted water.', 'Melt the butter and fry the garlic.', 'Add the cream and toss with the pasta.'])
  t.same(body.preview.tags, ['pasta', 'garlicbutter', 'easyrecipes'], 'hashtags are tags; #fyp says nothing about the dish')
  t.same(body.duplicates, [])
  t.same(hits, [VIDEO_PATH, SUBTITLE_PATH], 'the page (the canonical form of the link) and its subtitles; nothing else')
  t.equal(await importsUsed(app, ann), 0, 'a preview spends nothing')
  const [log] = await logs(app, ann, 1)
  t.match(log, { source: 'url', mode: 'preview', status: 'success', method: 'tiktok:text:caption' })
})

t.test('import saves a draft whose source is the video, crediting its author, its picture the thumbnail; a repeat answers 200 with it', async t => {
  const app = await build(t, APP)
  tiktok(t, tiktokPage(item()), { [`/@Chef.Jo/video/${TIKTOK_ID}`]: html(tiktokPage(item())) })
  const ann = await registerUser(app)
  const created = await post(app, ann, 'import', { url: VIDEO_URL })
  t.equal(created.statusCode, 201, created.body)
  const recipe = json(created).recipe
  t.match(recipe, { title: 'Creamy garlic butter pasta 🍝 ready in 15 minutes!', published: false, sourceUrl: VIDEO_URL, author: { id: ann.id } })
  t.match(recipe.description, /From a TikTok video by @chef\.jo \(Chef Jo\)\./)
  t.equal(recipe.ingredients.length, 5)
  t.equal(recipe.instructions.length, 3)
  t.same(recipe.tags.map((tag: { name: string }) => tag.name).sort(), ['easyrecipes', 'garlicbutter', 'pasta'])
  t.match(recipe.imageUrl, new RegExp(`/uploads/${ann.id}/[A-Za-z0-9_-]+\\.webp$`), 'the thumbnail, copied as an imported image is')
  t.equal(await importsUsed(app, ann), 1)

  for (const again of [VIDEO_URL, `${VIDEO_URL}?is_from_webapp=1`, `https://tiktok.com/@Chef.Jo/video/${TIKTOK_ID}`]) {
    const repeat = await post(app, ann, 'import', { url: again })
    t.equal(repeat.statusCode, 200, `${again}: the same post again`)
    t.equal(json(repeat).recipe.id, recipe.id)
  }
  t.equal(await importsUsed(app, ann), 1, 'repeats spend nothing')

  const preview = json(await post(app, ann, 'preview', { url: VIDEO_URL }))
  t.same(preview.duplicates.map((d: { id: string }) => d.id), [recipe.id], 'the post is a duplicate of the recipe made from it')
  const bob = await registerUser(app)
  t.same(json(await post(app, bob, 'preview', { url: VIDEO_URL })).duplicates, [], 'duplicates are only your own recipes')

  const published = await post(app, ann, 'import', { url: VIDEO_URL, saveAsDraft: false })
  t.equal(published.statusCode, 201, 'published is another import than the draft')
  t.equal(json(published).recipe.published, true)
})

t.test('short links are followed hop by hop, each hop on TikTok\'s hosts', async t => {
  const app = await build(t, APP)
  const hits = tiktok(t, tiktokPage(item()), {
    '/ZMabc123/': redirect('https://vt.tiktok.com/ZSdef456/'),
    '/ZSdef456/': redirect(`https://www.tiktok.com${VIDEO_PATH}?_r=1&_t=8abc`, 302),
    '/t/ZTghi789/': redirect(`${VIDEO_PATH}?_r=1`, 307)
  })
  const ann = await registerUser(app)
  const res = await post(app, ann, 'preview', { url: 'https://vm.tiktok.com/ZMabc123/' })
  t.equal(res.statusCode, 200, res.body)
  t.match(json(res).video, { id: TIKTOK_ID, url: VIDEO_URL })
  t.same(hits, ['/ZMabc123/', '/ZSdef456/', `${VIDEO_PATH}?_r=1&_t=8abc`, SUBTITLE_PATH], 'one request per hop, then the subtitles')

  const relative = await post(app, ann, 'import', { url: 'https://www.tiktok.com/t/ZTghi789' })
  t.equal(relative.statusCode, 201, relative.body)
  t.equal(json(relative).recipe.sourceUrl, VIDEO_URL, 'the recipe keeps the post\'s address, not the short link')
  const direct = await post(app, ann, 'import', { url: 'https://vt.tiktok.com/ZSdef456/' })
  t.equal(direct.statusCode, 200, 'another short link to the same post repeats the import')
})

t.test('a short link that leads off TikTok is refused at that hop; the other host is never asked', async t => {
  const app = await build(t, APP)
  const reached: string[] = []
  const other = createServer((req, res) => { reached.push(req.url ?? ''); res.end('secret') })
  await new Promise<void>(resolve => other.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { other.closeAllConnections(); other.close() })
  const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
  const hits = SITE.serve(t, {
    '/ZMloop01/': redirect(`${otherOrigin}/steal`),
    '/ZMevil02/': redirect('https://www.tiktok.com.evil.example/@a/video/1'),
    '/ZMyt0003/': redirect('https://www.youtube.com/watch?v=abcDEF12345'),
    '/ZMftp004/': redirect('ftp://vm.tiktok.com/x'),
    '/ZMmany05/': redirect('https://vm.tiktok.com/ZMmany05/')
  })
  const ann = await registerUser(app)
  for (const [code, reason] of [
    ['ZMloop01', '127.0.0.1 is not a TikTok host'],
    ['ZMevil02', 'www.tiktok.com.evil.example is not a TikTok host'],
    ['ZMyt0003', 'www.youtube.com is not a TikTok host'],
    ['ZMftp004', 'redirect to scheme ftp:']
  ]) {
    const res = await post(app, ann, 'preview', { url: `https://vm.tiktok.com/${code}/` })
    t.equal(res.statusCode, 400, code)
    t.same(json(res), { success: false, error: 'URL not allowed', details: [reason] }, `${code}: the reason is named`)
  }
  const loop = await post(app, ann, 'preview', { url: 'https://vm.tiktok.com/ZMmany05/' })
  t.equal(loop.statusCode, 502, 'a redirect loop ends')
  t.match(json(loop).details, [/too many redirects/])
  t.same(reached, [], 'the other server received nothing')
  t.equal(hits.filter(h => h === '/ZMmany05/').length, 6, 'the first request and five hops')
})

t.test('the older SIGI_STATE page shape', async t => {
  const app = await build(t, APP)
  tiktok(t, sigiPage(item({ desc: INGREDIENTS_ONLY_CAPTION })))
  const ann = await registerUser(app)
  const res = await post(app, ann, 'preview', { url: VIDEO_URL })
  t.equal(res.statusCode, 200, res.body)
  const body = json(res)
  t.match(body.video, { id: TIKTOK_ID, author: '@chef.jo', durationSeconds: 42, thumbnailUrl: TIKTOK_COVER })
  t.same(body.preview.ingredients.map((i: { name: string }) => i.name), ['spaghetti', 'garlic', 'butter', 'cream'])
  t.same(body.preview.instructions.map((s: { text: string }) => s.text), [
    'So first you boil the spaghetti in well salted water.',
    'Melt the butter & fry the garlic until golden.',
    'Pour in the cream and toss everything together.'
  ], 'the caption lists no method: the subtitles (cue text only, repeats once) are its steps')
  t.same(body.preview.tags, ['dinner', 'pasta'])
  const [log] = await logs(app, ann, 1)
  t.equal(log.method, 'tiktok:text:caption+subtitles')
})

t.test('a captured page is read instead of fetching it; its subtitles still come from TikTok', async t => {
  const app = await build(t, APP)
  const hits = tiktok(t, '<html>never fetched</html>')
  const ann = await registerUser(app)
  const page = tiktokPage(item({ desc: INGREDIENTS_ONLY_CAPTION }))
  const res = await post(app, ann, 'import', { url: VIDEO_URL, html: page })
  t.equal(res.statusCode, 201, res.body)
  t.equal(json(res).recipe.instructions.length, 3)
  t.notOk(hits.includes(VIDEO_PATH), 'the page itself was not fetched')
  t.ok(hits.includes(SUBTITLE_PATH), 'the subtitles were')
  const [log] = await logs(app, ann, 1)
  t.match(log, { source: 'html', mode: 'create', status: 'success' })

  const short = await post(app, ann, 'preview', { url: 'https://vm.tiktok.com/ZMnever1/', html: page })
  t.equal(short.statusCode, 200, 'a short link with its captured page: the post comes from the page')
  t.match(json(short).video, { id: TIKTOK_ID, url: VIDEO_URL })
  t.same(json(short).duplicates.map((d: { id: string }) => d.id), [json(res).recipe.id])
  t.notOk(hits.includes('/ZMnever1/'), 'the short link was not followed')
})

t.test('any other URL is 400 in the envelope, and nothing is fetched', async t => {
  const app = await build(t, APP)
  const hits = tiktok(t, tiktokPage(item()))
  const ann = await registerUser(app)
  for (const url of [
    'https://example.com/recipes/pasta', 'https://www.tiktok.com/@chef.jo', 'https://www.tiktok.com/@chef.jo/video/notanid',
    `https://www.tiktok.com:8443${VIDEO_PATH}`, `https://user:pw@www.tiktok.com${VIDEO_PATH}`, `ftp://www.tiktok.com${VIDEO_PATH}`,
    `${SITE.origin}${VIDEO_PATH}`, 'https://tiktok.com.evil.example/@a/video/7301234567890123456', 'not a url'
  ]) {
    const res = await post(app, ann, 'preview', { url })
    t.equal(res.statusCode, 400, url)
    t.same(json(res), { success: false, error: 'URL not allowed', details: ['not a TikTok, YouTube or Instagram video link'] }, url)
  }
  const captured = await post(app, ann, 'import', { url: 'https://example.com/x', html: tiktokPage(item()) })
  t.equal(captured.statusCode, 400, 'a captured page does not make any URL a video link')
  const blank = await post(app, ann, 'import', {})
  t.equal(blank.statusCode, 400)
  t.equal(json(blank).error, 'Validation error')
  t.same(hits, [], 'nothing was fetched')
})

t.test('removed, private and blocked posts, and captions without a recipe, are 422 with the reason', async t => {
  const app = await build(t, APP)
  SITE.serve(t, {
    '/@a/video/7300000000000000001': html(tiktokUnavailablePage(10204, 'item doesn\'t exist')),
    '/@a/video/7300000000000000002': html(tiktokUnavailablePage(10222, '')),
    '/@a/video/7300000000000000003': html(tiktokUnavailablePage(10999, 'Video not available in your region')),
    '/@a/video/7300000000000000004': html('<!DOCTYPE html><html><head><title>TikTok</title></head><body>This video is unavailable</body></html>'),
    '/@a/video/7300000000000000005': status(404),
    '/@a/video/7300000000000000006': html(tiktokPage(item({ id: '7300000000000000006', desc: 'Best day at the beach with friends 🌊 #summer #fyp', subtitles: [] }))),
    '/@a/video/7300000000000000007': html(tiktokPage(item({ id: '7300000000000000007', desc: '#fyp #viral' }))),
    '/@a/video/7300000000000000008': html(tiktokPage(item({ id: '7300000000000000008', desc: '', subtitles: [] }))),
    '/@a/video/7300000000000000009': status(503),
    [SUBTITLE_PATH]: file('WEBVTT\n\n00:00.000 --> 00:02.000\nHello everyone and welcome back\n', 'text/vtt')
  })
  const ann = await registerUser(app)
  for (const [n, statusCode, details] of [
    [1, 422, ['TikTok: the video was removed or does not exist']],
    [2, 422, ['TikTok: the account is private']],
    [3, 422, ['TikTok: Video not available in your region']],
    [4, 422, ['TikTok: the page holds no post (it may be private, removed or blocked in this region)']],
    [5, 422, ['TikTok: the post does not exist or was removed (404)']],
    [6, 422, ['TikTok: no ingredients found in the caption']],
    [7, 422, ['TikTok: no ingredients found in the caption or subtitles']],
    [8, 422, ['TikTok: the post has no caption or subtitles to read a recipe from']],
    [9, 502, ['upstream answered 503']]
  ] as const) {
    const res = await post(app, ann, 'import', { url: `https://www.tiktok.com/@a/video/730000000000000000${n}` })
    t.equal(res.statusCode, statusCode, `post ${n}`)
    t.same(json(res), { success: false, error: statusCode === 422 ? 'No recipe found' : 'The page could not be fetched', details }, `post ${n}`)
  }
  t.equal(await importsUsed(app, ann), 0, 'failures spend nothing')
  const rows = await logs(app, ann, 9)
  t.ok(rows.every(row => row.status === 'failed' && row.mode === 'create'), 'every attempt is logged as failed')
})

t.test('bounds: a page over 5 MB is not read, a subtitle file over 512 KB is not used; a large page is read off the event loop', async t => {
  const app = await build(t, APP)
  const huge = `<html><body>${'<div>padding</div>'.repeat(Math.ceil((5 * 1024 * 1024 + 1) / 17))}</body></html>`
  const hugeVtt = `WEBVTT\n\n${'00:00.000 --> 00:01.000\nstir the pot and keep stirring\n\n'.repeat(12_000)}`
  t.ok(hugeVtt.length > 512 * 1024)
  SITE.serve(t, {
    '/@a/video/7311111111111111111': html(huge),
    '/@a/video/7322222222222222222': html(tiktokPage(item({ id: '7322222222222222222', desc: INGREDIENTS_ONLY_CAPTION }))),
    '/@a/video/7333333333333333333': html(tiktokPage(item({ id: '7333333333333333333', desc: GARLIC_PASTA_CAPTION, subtitles: [] }), `<p>${'x'.repeat(2 * 1024 * 1024)}</p>`)),
    [SUBTITLE_PATH]: file(hugeVtt, 'text/vtt')
  })
  const ann = await registerUser(app)
  const tooLarge = await post(app, ann, 'preview', { url: 'https://www.tiktok.com/@a/video/7311111111111111111' })
  t.equal(tooLarge.statusCode, 502)
  t.match(json(tooLarge), { error: 'The page could not be fetched', details: [/response too large/] })

  const captionOnly = await post(app, ann, 'preview', { url: 'https://www.tiktok.com/@a/video/7322222222222222222' })
  t.equal(captionOnly.statusCode, 200, captionOnly.body)
  t.equal(json(captionOnly).preview.ingredients.length, 4, 'the caption is still read')
  t.same(json(captionOnly).preview.instructions, [], 'the oversized subtitles are not')

  const large = await post(app, ann, 'preview', { url: 'https://www.tiktok.com/@a/video/7333333333333333333' })
  t.equal(large.statusCode, 200, large.body)
  t.equal(json(large).preview.ingredients.length, 5, 'a 2 MB page is read (in the reader\'s thread)')
  const rows = await logs(app, ann, 3)
  t.same(rows.map(row => row.method), [null, 'tiktok:text:caption', 'tiktok:text:caption'])
})

t.test('the gate: sign-in, the recipe-import flag, the monthly allowance exact under concurrent imports', async t => {
  const app = await build(t, APP)
  SITE.serve(t, { [SUBTITLE_PATH]: file(VTT, 'text/vtt') })
  const ann = await registerUser(app)
  const admin = await createAdmin(app)
  const page = (n: number) => tiktokPage(item({ id: `74000000000000000${10 + n}` }))
  const url = (n: number) => `https://www.tiktok.com/@chef.jo/video/74000000000000000${10 + n}`

  const anonymous = await post(app, null, 'preview', { url: url(0), html: page(0) })
  t.equal(anonymous.statusCode, 401)
  t.equal(json(anonymous).success, false)

  await app.inject({ method: 'PUT', url: '/api/admin/feature-flags', headers: adminBearer(admin), payload: { key: 'recipe-import', enabled: true, userIds: [], plans: ['premium'] } })
  const off = await post(app, ann, 'import', { url: url(0), html: page(0) })
  t.equal(off.statusCode, 403)
  t.same(json(off), { success: false, error: 'Recipe import is not available for your account', details: [] })
  await app.inject({ method: 'PUT', url: '/api/admin/feature-flags', headers: adminBearer(admin), payload: { key: 'recipe-import', enabled: true, plans: null } })

  await app.inject({ method: 'PATCH', url: '/api/admin/plans/free', headers: adminBearer(admin), payload: { limits: { imports: 3, recipes: 100 } } })
  const statuses = await Promise.all(Array.from({ length: 8 }, async (_, n) => (await post(app, ann, 'import', { url: url(n), html: page(n) })).statusCode))
  t.equal(statuses.filter(s => s === 201).length, 3, 'three imports fit the allowance')
  t.equal(statuses.filter(s => s === 403).length, 5)
  t.equal(await importsUsed(app, ann), 3)
  const spent = await post(app, ann, 'import', { url: url(9), html: page(9) })
  t.match(json(spent), { success: false, error: 'Monthly import limit reached for your plan' })
  t.equal((await post(app, ann, 'preview', { url: url(9), html: page(9) })).statusCode, 403, 'previews pass the same gate')
})

t.test('the OpenAPI document lists the family under its tag, every status declared', async t => {
  const app = await build(t, APP)
  const doc = json(await app.inject('/api/docs/json'))
  const tag = doc.tags.find((entry: { name: string }) => entry.name === 'TikTok')
  t.match(tag?.description, /short-video post/)
  const preview = doc.paths['/api/tiktok/preview'].post
  const imported = doc.paths['/api/tiktok/import'].post
  t.same(preview.tags, ['TikTok'])
  t.equal(preview.operationId, 'tiktok.preview')
  t.equal(imported.operationId, 'tiktok.import')
  t.same(Object.keys(preview.responses).sort(), ['200', '400', '401', '403', '422', '429', '500', '502', '503', '504'])
  t.same(Object.keys(imported.responses).sort(), ['200', '201', '400', '401', '403', '422', '429', '500', '502', '503', '504'])
  t.ok(doc.components.schemas.VideoInfo, 'the video facts are a named schema')
})
