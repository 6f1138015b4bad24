// Video import from YouTube (Shorts, watch and youtu.be links: ytInitialPlayerResponse, caption tracks as WebVTT) and
// Instagram (reels and posts: the page's OpenGraph tags) through /api/tiktok. A local server plays both platforms.
import { readFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearer, build, json, registerUser, type TestUser } from '../../../helper.js'
import { INGREDIENTS_ONLY_CAPTION, instagramPage, youtubePage, type YouTubeVideo } from '../../../fixtures/video/pages.js'
import { file, html, platformSite, status, type Handler } from './platforms.js'

const SITE = await platformSite()
const APP = { env: SITE.env, share: true }
const VTT = readFileSync(new URL('../../../fixtures/video/garlic-pasta.vtt', import.meta.url), 'utf8')

const post = async (app: FastifyInstance, user: TestUser, route: 'preview' | 'import', payload: Record<string, unknown>) =>
  await app.inject({ method: 'POST', url: `/api/tiktok/${route}`, headers: bearer(user), payload })

const ID = 'sM4shP0t4t0'
const POTATOES: YouTubeVideo = {
  id: ID,
  title: 'Crispy Smashed Potatoes #shorts #potatoes',
  channel: 'Chef Jo Kitchen',
  lengthSeconds: 57,
  description: `The crispiest smashed potatoes you will ever make 🥔

Ingredients
500g baby potatoes
3 tbsp olive oil
2 cloves garlic, grated
1 tsp flaky salt

Instructions
1. Boil the potatoes until tender, about 20 minutes.
2. Smash them flat on an oiled tray.
3. Brush with garlic oil and roast at 220C for 25 minutes.

#shorts #potatoes`,
  captions: [{ lang: 'de' }, { lang: 'en', kind: 'asr' }]
}

/** The timedtext endpoint: WebVTT for the asked language when `fmt=vtt`, else the XML format the tests never want. */
const timedtext = (lang: string): Handler => (res, req) => {
  const query = new URL(req.url ?? '', 'http://x').searchParams
  if (query.get('fmt') !== 'vtt') res.writeHead(200, { 'content-type': 'text/xml' }).end('<transcript/>')
  else if (query.get('lang') !== lang) res.writeHead(200, { 'content-type': 'text/vtt' }).end('WEBVTT\n\n00:00.000 --> 00:01.000\nfalsche Sprache\n')
  else res.writeHead(200, { 'content-type': 'text/vtt; charset=utf-8' }).end(VTT)
}

t.test('YouTube: Shorts, watch and youtu.be links name one video; its title, channel, thumbnail and description', async t => {
  const app = await build(t, APP)
  const hits = SITE.serve(t, {
    [`/shorts/${ID}`]: html(youtubePage(POTATOES)),
    [`/watch?v=${ID}`]: html(youtubePage(POTATOES)),
    '/api/timedtext': timedtext('en')
  })
  const ann = await registerUser(app)
  const res = await post(app, ann, 'preview', { url: `https://youtube.com/shorts/${ID}?feature=share` })
  t.equal(res.statusCode, 200, res.body)
  const body = json(res)
  t.same(body.video, {
    platform: 'youtube',
    id: ID,
    url: `https://youtu.be/${ID}`,
    author: 'Chef Jo Kitchen',
    caption: POTATOES.description,
    thumbnailUrl: `https://i.ytimg.com/vi/${ID}/maxresdefault.jpg`,
    durationSeconds: 57
  })
  t.match(body.preview, { title: 'Crispy Smashed Potatoes', author: 'Chef Jo Kitchen', sourceUrl: `https://youtu.be/${ID}` })
  t.match(body.preview.description, /^From a YouTube video by Chef Jo Kitchen\./)
  t.same(body.preview.ingredients.map((i: { name: string }) => i.name), ['baby potatoes', 'olive oil', 'garlic', 'flaky salt'])
  t.equal(body.preview.instructions.length, 3)
  t.same(body.preview.tags, ['potatoes'])
  t.same(hits, [`/shorts/${ID}`, `/api/timedtext?v=${ID}&lang=en&kind=asr&fmt=vtt`], 'the Shorts page, then the English track as WebVTT')

  const created = await post(app, ann, 'import', { url: `https://www.youtube.com/watch?v=${ID}&t=12s` })
  t.equal(created.statusCode, 201, created.body)
  t.equal(json(created).recipe.sourceUrl, `https://youtu.be/${ID}`)
  for (const again of [`https://youtu.be/${ID}`, `https://m.youtube.com/shorts/${ID}`]) {
    const repeat = await post(app, ann, 'import', { url: again })
    t.equal(repeat.statusCode, 200, `${again}: the same video`)
    t.equal(json(repeat).recipe.id, json(created).recipe.id)
  }
})

t.test('YouTube: a description without a method takes it from the English captions; an unavailable video is 422', async t => {
  const app = await build(t, APP)
  const spoken = { ...POTATOES, id: 'g4rl1cP4st4', title: 'Garlic butter pasta', description: INGREDIENTS_ONLY_CAPTION }
  SITE.serve(t, {
    '/shorts/g4rl1cP4st4': html(youtubePage(spoken)),
    '/shorts/pr1v4t3V1d0': html(youtubePage({ ...POTATOES, id: 'pr1v4t3V1d0', status: { status: 'LOGIN_REQUIRED', reason: 'This video is private' } })),
    '/shorts/r3g10nL0ck3': html(youtubePage({ ...POTATOES, id: 'r3g10nL0ck3', status: { status: 'UNPLAYABLE', reason: 'The uploader has not made this video available in your country' } })),
    '/shorts/n0D4t4H3r3x': html('<!DOCTYPE html><html><head><title>YouTube</title></head><body></body></html>'),
    '/api/timedtext': timedtext('en')
  })
  const ann = await registerUser(app)
  const res = await post(app, ann, 'preview', { url: 'https://www.youtube.com/shorts/g4rl1cP4st4' })
  t.equal(res.statusCode, 200, res.body)
  t.equal(json(res).preview.title, 'Garlic butter pasta')
  t.same(json(res).preview.instructions.map((s: { text: string }) => s.text), [
    'So first you boil the spaghetti in well salted water.',
    'Melt the butter & fry the garlic until golden.',
    'Pour in the cream and toss everything together.'
  ])
  for (const [id, reason] of [
    ['pr1v4t3V1d0', 'YouTube: This video is private'],
    ['r3g10nL0ck3', 'YouTube: The uploader has not made this video available in your country'],
    ['n0D4t4H3r3x', 'YouTube: the page holds no post (it may be private, removed or blocked in this region)']
  ]) {
    const gone = await post(app, ann, 'import', { url: `https://www.youtube.com/shorts/${id}` })
    t.equal(gone.statusCode, 422, id)
    t.same(json(gone), { success: false, error: 'No recipe found', details: [reason] }, id)
  }
})

const REEL = {
  code: 'C1a2B3c4D5e',
  handle: 'chef.jo',
  name: 'Chef Jo',
  caption: 'One-pan lemon chicken 🍋 "weeknight hero"\n\nIngredients:\n4 chicken thighs\n1 lemon, sliced\n2 tbsp olive oil\n\nMethod:\n1. Brown the chicken.\n2. Add the lemon and roast for 30 minutes.\n\n#dinner #chicken'
}

t.test('Instagram: reels and posts are read from the page\'s OpenGraph tags; both links name one post', async t => {
  const app = await build(t, APP)
  const hits = SITE.serve(t, {
    [`/reel/${REEL.code}/`]: html(instagramPage(REEL)),
    [`/p/${REEL.code}/`]: html(instagramPage({ ...REEL, kind: 'p' })),
    [`/reel/${'L0g1nW4ll00'}/`]: html('<!DOCTYPE html><html><head><title>Login • Instagram</title></head><body></body></html>'),
    [`/reel/${'G0n3P0st000'}/`]: status(404),
    [`/v/t51.2885-15/${REEL.code}.jpg`]: file(readFileSync(new URL('../../../fixtures/video/garlic-pasta.vtt', import.meta.url)), 'text/plain')
  })
  const ann = await registerUser(app)
  const res = await post(app, ann, 'preview', { url: `https://www.instagram.com/reel/${REEL.code}/?igsh=abc123` })
  t.equal(res.statusCode, 200, res.body)
  const body = json(res)
  t.same(body.video, {
    platform: 'instagram',
    id: REEL.code,
    url: `https://www.instagram.com/p/${REEL.code}/`,
    author: '@chef.jo',
    caption: REEL.caption,
    thumbnailUrl: `https://scontent.cdninstagram.com/v/t51.2885-15/${REEL.code}.jpg`,
    durationSeconds: null
  }, 'the caption comes out of og:description, quotes and entities as written')
  t.match(body.preview, { title: 'One-pan lemon chicken 🍋 "weeknight hero"', author: '@chef.jo' })
  t.same(body.preview.ingredients.map((i: { name: string }) => i.name), ['chicken thighs', 'lemon', 'olive oil'])
  t.equal(body.preview.instructions.length, 2)
  t.same(hits, [`/reel/${REEL.code}/`])

  const created = await post(app, ann, 'import', { url: `https://instagram.com/chef.jo/p/${REEL.code}/` })
  t.equal(created.statusCode, 201, created.body)
  t.equal(json(created).recipe.imageUrl, null, 'a thumbnail that is not an image leaves the recipe without one')
  const repeat = await post(app, ann, 'import', { url: `https://www.instagram.com/reels/${REEL.code}/` })
  t.equal(repeat.statusCode, 200)
  t.equal(json(repeat).recipe.id, json(created).recipe.id)

  const wall = await post(app, ann, 'preview', { url: 'https://www.instagram.com/reel/L0g1nW4ll00/' })
  t.equal(wall.statusCode, 422)
  t.same(json(wall).details, ['Instagram: the page holds no post (it may be private, removed or blocked in this region)'])
  const gone = await post(app, ann, 'preview', { url: 'https://www.instagram.com/reel/G0n3P0st000/' })
  t.same(json(gone).details, ['Instagram: the post does not exist or was removed (404)'])
})
