// Video import with an AI provider: the caption and subtitles (or, with AI_TRANSCRIBE, a transcript of the post's
// audio) are structured by the model; its recipe is repaired once when it is not one, and grounded in what the video
// says (one retry), and the text importer's reading is the fallback whenever the model fails. A local server plays
// TikTok, another the OpenAI-compatible provider (chat completions and audio transcriptions).
import { readFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { bearer, build, eventually, json, registerUser, type TestUser } from '../../../helper.js'
import { INGREDIENTS_ONLY_CAPTION, TIKTOK_ID, TIKTOK_SUBTITLE, tiktokPage, type TikTokItem } from '../../../fixtures/video/pages.js'
import { file, html, platformSite } from './platforms.js'
import { completion, recipeJson, videoProvider } from './provider.js'

const SITE = await platformSite()
const PROVIDER = await videoProvider(t)
const AI_APP = { env: PROVIDER.env(SITE.env), share: true }
const TRANSCRIBING_APP = { env: PROVIDER.env({ ...SITE.env, AI_TRANSCRIBE: 'true' }), share: true }
const VTT = readFileSync(new URL('../../../fixtures/video/garlic-pasta.vtt', import.meta.url), 'utf8')

const VIDEO_PATH = `/@chef.jo/video/${TIKTOK_ID}`
const VIDEO_URL = `https://www.tiktok.com${VIDEO_PATH}`
const SUBTITLE_PATH = new URL(TIKTOK_SUBTITLE).pathname
const AUDIO_URL = `https://v16-webapp-prime.tiktok.com/music/${TIKTOK_ID}.mp3`
const AUDIO = Buffer.from(Array.from({ length: 48_000 }, (_, i) => (i * 37) % 256))

const item = (extra: Partial<TikTokItem> = {}): TikTokItem => ({
  id: TIKTOK_ID, handle: 'chef.jo', nickname: 'Chef Jo', desc: INGREDIENTS_ONLY_CAPTION, subtitles: [{ url: TIKTOK_SUBTITLE, language: 'eng-US' }], ...extra
})
const serve = (t: Test, page: string, audio: Buffer = AUDIO) => SITE.serve(t, {
  [VIDEO_PATH]: html(page),
  [SUBTITLE_PATH]: file(VTT, 'text/vtt'),
  [new URL(AUDIO_URL).pathname]: file(audio, 'audio/mpeg')
})
/** The provider's record, fresh for each test (one provider serves the file). */
const fresh = () => {
  PROVIDER.chats.length = 0
  PROVIDER.transcriptions.length = 0
  PROVIDER.fallback = completion(recipeJson())
  PROVIDER.transcript = { json: { text: '' } }
}

const post = async (app: FastifyInstance, user: TestUser, route: 'preview' | 'import', payload: Record<string, unknown>) =>
  await app.inject({ method: 'POST', url: `/api/tiktok/${route}`, headers: bearer(user), payload })
const lastMethod = async (app: FastifyInstance, user: TestUser) => await eventually(async () => {
  const rows = await app.db`select method from import_logs where user_id = ${user.id} order by created_at desc limit 1`
  return rows.length > 0 ? rows[0].method as string : null
})
const userMessage = (i: number) => [...PROVIDER.chats[i].messages].reverse().find(m => m.role === 'user')?.content ?? ''

/** The recipe the video shows, as a model would write it. */
const PASTA = recipeJson({
  title: 'Garlic Butter Spaghetti',
  description: 'Spaghetti in a garlic butter cream sauce.',
  cuisine: 'Italian',
  servings: 2,
  prepTime: 5,
  cookTime: 15,
  ingredients: [
    { name: 'spaghetti', quantity: 200, unit: 'g', note: null },
    { name: 'garlic', quantity: 3, unit: 'cloves', note: 'minced' },
    { name: 'butter', quantity: 2, unit: 'tbsp', note: null },
    { name: 'cream', quantity: 100, unit: 'ml', note: null },
    { name: 'salt', quantity: null, unit: null, note: 'for the water' }
  ],
  instructions: ['Boil the spaghetti in well salted water.', 'Melt the butter and fry the garlic until golden.', 'Pour in the cream and toss with the pasta.'],
  tags: ['pasta', 'quick']
})
const INVENTED = recipeJson({
  ingredients: ['2 chicken breasts', '1 cup rice', '2 tbsp soy sauce', '200 g spaghetti'],
  instructions: ['Cook everything.']
})

t.test('the model structures caption and subtitles; the recipe credits the author and keeps the video as its source', async t => {
  fresh()
  const app = await build(t, AI_APP)
  serve(t, tiktokPage(item()))
  PROVIDER.script(completion(PASTA))
  const ann = await registerUser(app)
  const res = await post(app, ann, 'import', { url: VIDEO_URL })
  t.equal(res.statusCode, 201, res.body)
  const recipe = json(res).recipe
  t.match(recipe, { title: 'Garlic Butter Spaghetti', servings: 2, prepTime: 5, cookTime: 15, totalTime: 20, sourceUrl: VIDEO_URL, cuisine: 'Italian' })
  t.same(recipe.ingredients.map((i: { name: string }) => i.name), ['spaghetti', 'garlic', 'butter', 'cream', 'salt'])
  t.equal(recipe.instructions.length, 3)
  t.equal(recipe.description, 'From a TikTok video by @chef.jo (Chef Jo).\n\nSpaghetti in a garlic butter cream sauce.')
  t.same(recipe.tags.map((tag: { name: string }) => tag.name).sort(), ['dinner', 'pasta', 'quick'], 'the model\'s tags and the hashtags')

  t.equal(PROVIDER.chats.length, 1, 'one call: the reply was a grounded recipe')
  const [system, user] = PROVIDER.chats[0].messages
  t.match(system.content, /Use only what the video says/)
  t.match(user.content, /<<<CAPTION\nGarlic butter pasta you can make tonight 🧄\n\n200g spaghetti/)
  t.notMatch(user.content, /#dinner/, 'hashtags are not part of the caption sent')
  t.match(user.content, /<<<SUBTITLES\nSo first you boil the spaghetti\nin well salted water\.\nMelt the butter & fry the garlic until golden\./)
  t.notMatch(user.content, /-->|WEBVTT|<c/, 'no timings or tags reach the model')
  t.equal(await lastMethod(app, ann), 'tiktok:ai:caption+subtitles')
})

t.test('a recipe the video does not say gets one grounding retry naming what was invented and what was left out', async t => {
  fresh()
  const app = await build(t, AI_APP)
  serve(t, tiktokPage(item()))
  PROVIDER.script(completion(INVENTED), completion(PASTA))
  const ann = await registerUser(app)
  const res = await post(app, ann, 'preview', { url: VIDEO_URL })
  t.equal(res.statusCode, 200, res.body)
  t.equal(json(res).preview.title, 'Garlic Butter Spaghetti', 'the corrected reply is used')
  t.equal(PROVIDER.chats.length, 2)
  const retry = userMessage(1)
  t.match(retry, /not in the caption, subtitles or transcript: chicken breast/)
  t.match(retry, /rice/)
  t.match(retry, /The caption lists these ingredients, which the recipe left out: garlic, butter, cream/)
})

t.test('when the model fails (invents twice, refuses, breaks, is down), the text importer\'s reading is the recipe', async t => {
  fresh()
  const app = await build(t, AI_APP)
  serve(t, tiktokPage(item()))
  const ann = await registerUser(app)
  const textSteps = ['So first you boil the spaghetti in well salted water.', 'Melt the butter & fry the garlic until golden.', 'Pour in the cream and toss everything together.']
  for (const [name, replies, calls] of [
    ['invents twice', [completion(INVENTED), completion(INVENTED)], 2],
    ['refuses', [completion({ refusal: 'This video is about a car.' })], 1],
    ['not a recipe twice', [completion('Sure! Here is your recipe: a pasta.'), completion({ title: 'Pasta' })], 2],
    ['answers 500', [{ status: 500, json: { error: 'down' } }], 1]
  ] as const) {
    PROVIDER.chats.length = 0
    PROVIDER.script(...replies)
    const res = await post(app, ann, 'preview', { url: VIDEO_URL })
    t.equal(res.statusCode, 200, `${name}: ${res.body}`)
    const preview = json(res).preview
    t.same(preview.ingredients.map((i: { name: string }) => i.name), ['spaghetti', 'garlic', 'butter', 'cream'], `${name}: the caption's ingredients`)
    t.same(preview.instructions.map((s: { text: string }) => s.text), textSteps, `${name}: the subtitles as steps`)
    t.equal(PROVIDER.chats.length, calls, `${name}: ${calls} call(s)`)
    t.equal(await lastMethod(app, ann), 'tiktok:text:caption+subtitles', name)
  }
})

t.test('a reply that is not a recipe is repaired once', async t => {
  fresh()
  const app = await build(t, AI_APP)
  serve(t, tiktokPage(item()))
  PROVIDER.script(completion({ title: 'Garlic Butter Spaghetti', ingredients: [] }), completion(PASTA))
  const ann = await registerUser(app)
  const res = await post(app, ann, 'preview', { url: VIDEO_URL })
  t.equal(res.statusCode, 200, res.body)
  t.equal(json(res).preview.title, 'Garlic Butter Spaghetti')
  t.equal(PROVIDER.chats.length, 2)
  t.match(userMessage(1), /Your reply could not be used/)
})

t.test('AI_TRANSCRIBE: a post without subtitles has its audio transcribed by the provider, bounded in size', async t => {
  fresh()
  const app = await build(t, TRANSCRIBING_APP)
  const page = tiktokPage(item({ subtitles: [], music: { playUrl: AUDIO_URL, original: true } }))
  const hits = serve(t, page)
  PROVIDER.transcript = { json: { text: 'Boil the spaghetti. Fry the garlic in the butter. Stir in the cream and serve.' } }
  PROVIDER.script(completion(PASTA))
  const ann = await registerUser(app)
  const res = await post(app, ann, 'preview', { url: VIDEO_URL })
  t.equal(res.statusCode, 200, res.body)
  t.equal(json(res).preview.title, 'Garlic Butter Spaghetti')
  t.ok(hits.includes(new URL(AUDIO_URL).pathname), 'the audio the page links was fetched from TikTok')
  t.same(PROVIDER.transcriptions.map(({ model, responseFormat, fileType, fileBytes, fileName }) => ({ model, responseFormat, fileType, fileBytes, fileName })),
    [{ model: 'whisper-1', responseFormat: 'json', fileType: 'audio/mpeg', fileBytes: AUDIO.length, fileName: 'audio.mp3' }])
  t.equal(PROVIDER.transcriptions[0].authorization, `Bearer ${PROVIDER.env().AI_API_KEY}`)
  t.match(userMessage(0), /<<<TRANSCRIPT\nBoil the spaghetti\. Fry the garlic in the butter\./)
  t.equal(await lastMethod(app, ann), 'tiktok:ai:caption+transcript')

  // Without AI_TRANSCRIBE the audio is never fetched.
  const plain = await build(t, AI_APP)
  const before = hits.length
  PROVIDER.script(completion(PASTA))
  t.equal((await post(plain, ann, 'preview', { url: VIDEO_URL })).statusCode, 200)
  t.notOk(hits.slice(before).includes(new URL(AUDIO_URL).pathname), 'no transcription without AI_TRANSCRIBE')
  t.equal(PROVIDER.transcriptions.length, 1)
})

t.test('AI_TRANSCRIBE: audio over 16 MB is not sent; a failing transcription leaves the caption', async t => {
  fresh()
  const app = await build(t, TRANSCRIBING_APP)
  serve(t, tiktokPage(item({ subtitles: [], music: { playUrl: AUDIO_URL, original: true } })), Buffer.alloc(16 * 1024 * 1024 + 1))
  const ann = await registerUser(app)
  PROVIDER.script(completion(PASTA))
  const res = await post(app, ann, 'preview', { url: VIDEO_URL })
  t.equal(res.statusCode, 200, res.body)
  t.equal(PROVIDER.transcriptions.length, 0, 'the oversized audio was not transcribed')
  t.equal(await lastMethod(app, ann), 'tiktok:ai:caption')
  t.notMatch(userMessage(0), /TRANSCRIPT/)

  serve(t, tiktokPage(item({ subtitles: [], music: { playUrl: AUDIO_URL, original: true } })))
  PROVIDER.transcript = { status: 500, json: { error: 'down' } }
  PROVIDER.script(completion(PASTA))
  const failing = await post(app, ann, 'preview', { url: VIDEO_URL })
  t.equal(failing.statusCode, 200, failing.body)
  t.equal(PROVIDER.transcriptions.length, 1, 'asked once')
  t.equal(await lastMethod(app, ann), 'tiktok:ai:caption')
})
