// The video import's pure parts (lib/video-import): which links it takes and the canonical address of a post, the
// hosts it may fetch and the test mapping, reading each platform's page shape, WebVTT to text, hashtags, the text
// importer's reading and the model's grounding; and hostile pages, subtitles and captions, whose work must stay
// linear in their size (counted, not timed: test/helpers/work.ts).
import { readFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { loadConfig } from '../../config.js'
import { newStats, ModelRefusal, UnusableRecipe } from '../../lib/ai/generate.js'
import type { ChatClient, Completion } from '../../lib/ai/provider.js'
import { readRecipe } from '../../lib/ai/recipe-output.js'
import { UrlNotAllowed } from '../../lib/recipe-import/safe-fetch.js'
import { createPlatformFetcher } from '../../lib/video-import/fetch.js'
import { assignedObject, attributes, objectEnd, pageMeta, scriptById } from '../../lib/video-import/html.js'
import { canonicalUrl, parsePlatformOrigins, parseVideoLink, platformOfHost } from '../../lib/video-import/links.js'
import { readVideoPage } from '../../lib/video-import/page.js'
import {
  captionTitle, checkVideoGrounding, creditLine, spokenSteps, splitHashtags, structureWithModel, textRecipe, videoPrompt, videoTitle, wordSet
} from '../../lib/video-import/structure.js'
import { webVttText } from '../../lib/video-import/webvtt.js'
import {
  GARLIC_PASTA_CAPTION, INGREDIENTS_ONLY_CAPTION, instagramPage, sigiPage, TIKTOK_ID, tiktokPage, tiktokUnavailablePage, youtubePage
} from '../fixtures/video/pages.js'
import { LINEAR_GROWTH, workOf } from '../helpers/work.js'

const VTT = readFileSync(new URL('../fixtures/video/garlic-pasta.vtt', import.meta.url), 'utf8')
const ITEM = { id: TIKTOK_ID, handle: 'chef.jo', nickname: 'Chef Jo', desc: GARLIC_PASTA_CAPTION }

t.test('links: the forms each platform uses, and nothing else', async t => {
  const cases: Array<[string, ReturnType<typeof parseVideoLink>]> = [
    [`https://www.tiktok.com/@chef.jo/video/${TIKTOK_ID}?is_from_webapp=1`, { platform: 'tiktok', id: TIKTOK_ID, handle: 'chef.jo', short: false, pageUrl: `https://www.tiktok.com/@chef.jo/video/${TIKTOK_ID}` }],
    [`http://tiktok.com/@Chef_Jo/video/${TIKTOK_ID}/`, { platform: 'tiktok', id: TIKTOK_ID, handle: 'Chef_Jo', short: false, pageUrl: `https://www.tiktok.com/@Chef_Jo/video/${TIKTOK_ID}` }],
    [`https://m.tiktok.com/v/${TIKTOK_ID}.html`, { platform: 'tiktok', id: TIKTOK_ID, handle: null, short: false, pageUrl: `https://www.tiktok.com/@/video/${TIKTOK_ID}` }],
    ['https://vm.tiktok.com/ZMabc123/', { platform: 'tiktok', id: null, handle: null, short: true, pageUrl: 'https://vm.tiktok.com/ZMabc123/' }],
    ['https://VT.TikTok.com./ZSxyz', { platform: 'tiktok', id: null, handle: null, short: true, pageUrl: 'https://vt.tiktok.com/ZSxyz/' }],
    ['https://www.tiktok.com/t/ZT8abc/', { platform: 'tiktok', id: null, handle: null, short: true, pageUrl: 'https://www.tiktok.com/t/ZT8abc/' }],
    ['https://youtube.com/shorts/abcDEF12345?feature=share', { platform: 'youtube', id: 'abcDEF12345', handle: null, short: false, pageUrl: 'https://www.youtube.com/shorts/abcDEF12345' }],
    ['https://m.youtube.com/watch?v=abcDEF12345&t=3s', { platform: 'youtube', id: 'abcDEF12345', handle: null, short: false, pageUrl: 'https://www.youtube.com/watch?v=abcDEF12345' }],
    ['https://youtu.be/abcDEF12345?si=x', { platform: 'youtube', id: 'abcDEF12345', handle: null, short: false, pageUrl: 'https://www.youtube.com/watch?v=abcDEF12345' }],
    ['https://www.instagram.com/reel/C1a2B3c4D5e/?igsh=x', { platform: 'instagram', id: 'C1a2B3c4D5e', handle: null, short: false, pageUrl: 'https://www.instagram.com/reel/C1a2B3c4D5e/' }],
    ['https://instagram.com/reels/C1a2B3c4D5e', { platform: 'instagram', id: 'C1a2B3c4D5e', handle: null, short: false, pageUrl: 'https://www.instagram.com/reel/C1a2B3c4D5e/' }],
    ['https://www.instagram.com/chef.jo/p/C1a2B3c4D5e/', { platform: 'instagram', id: 'C1a2B3c4D5e', handle: null, short: false, pageUrl: 'https://www.instagram.com/p/C1a2B3c4D5e/' }],
    ['https://www.instagram.com/tv/C1a2B3c4D5e/', { platform: 'instagram', id: 'C1a2B3c4D5e', handle: null, short: false, pageUrl: 'https://www.instagram.com/tv/C1a2B3c4D5e/' }]
  ]
  for (const [url, expected] of cases) t.same(parseVideoLink(url), expected, url)
  for (const url of [
    'https://example.com/video/1', 'https://www.tiktok.com/@chef.jo', `https://www.tiktok.com/@chef.jo/photo/${TIKTOK_ID}`, 'https://www.tiktok.com/@chef.jo/video/12',
    `https://www.tiktok.com:444/@a/video/${TIKTOK_ID}`, `https://a:b@www.tiktok.com/@a/video/${TIKTOK_ID}`, `ftp://www.tiktok.com/@a/video/${TIKTOK_ID}`,
    'https://vm.tiktok.com/', 'https://vm.tiktok.com/a/b/', 'https://www.youtube.com/watch?v=short', 'https://www.youtube.com/channel/UCabc',
    'https://youtu.be/', 'https://www.instagram.com/chef.jo/', 'https://www.instagram.com/stories/chef.jo/123/', 'https://tiktok.com.evil.example/@a/video/7301234567890123456',
    'https://notyoutube.com/shorts/abcDEF12345', 'javascript:alert(1)', 'no url', `https://www.tiktok.com/@a/video/${TIKTOK_ID}${'x'.repeat(2000)}`
  ]) t.equal(parseVideoLink(url), null, url)

  t.equal(canonicalUrl('tiktok', TIKTOK_ID, 'Chef.Jo'), `https://www.tiktok.com/@chef.jo/video/${TIKTOK_ID}`)
  t.equal(canonicalUrl('youtube', 'abcDEF12345', null), 'https://youtu.be/abcDEF12345')
  t.equal(canonicalUrl('instagram', 'C1a2B3c4D5e', null), 'https://www.instagram.com/p/C1a2B3c4D5e/')
})

t.test('hosts: only the platforms\' own (and their subdomains); the test mapping is exact and refused when malformed', async t => {
  for (const [host, platform] of [
    ['www.tiktok.com', 'tiktok'], ['p16-sign-va.tiktokcdn.com', 'tiktok'], ['v16m.tiktokcdn-us.com', 'tiktok'], ['TIKTOK.COM.', 'tiktok'],
    ['i.ytimg.com', 'youtube'], ['rr1---sn-abc.googlevideo.com', 'youtube'], ['youtu.be', 'youtube'],
    ['scontent-ams2-1.cdninstagram.com', 'instagram'], ['scontent.xx.fbcdn.net', 'instagram'],
    ['tiktok.com.evil.example', null], ['eviltiktok.com', null], ['youtube.com.example', null], ['127.0.0.1', null], ['localhost', null]
  ] as const) t.equal(platformOfHost(host), platform, host)

  t.same(parsePlatformOrigins(' www.tiktok.com=http://127.0.0.1:4567 , I.YTIMG.COM=http://127.0.0.1:4568/ '),
    { 'www.tiktok.com': 'http://127.0.0.1:4567', 'i.ytimg.com': 'http://127.0.0.1:4568' })
  t.same(parsePlatformOrigins(''), {})
  t.match(parsePlatformOrigins('example.com=http://127.0.0.1:1'), /not a video platform host/)
  t.match(parsePlatformOrigins('www.tiktok.com=http://127.0.0.1:1/path'), /not host=scheme/)
  t.match(parsePlatformOrigins('www.tiktok.com'), /not a video platform host/)

  const mapped = createPlatformFetcher({ origins: { 'www.tiktok.com': 'http://127.0.0.1:4567' } })
  t.equal(mapped.target(new URL('https://www.tiktok.com/@a/video/1?x=1#f'), 'tiktok'), 'http://127.0.0.1:4567/@a/video/1?x=1')
  t.throws(() => mapped.target(new URL('https://vm.tiktok.com/x'), 'tiktok'), new UrlNotAllowed('URL not allowed: vm.tiktok.com is not in VIDEO_PLATFORM_ORIGINS'))
  t.throws(() => mapped.target(new URL('https://www.youtube.com/x'), 'tiktok'), new UrlNotAllowed('URL not allowed: www.youtube.com is not a TikTok host'))
  t.equal(mapped.address('https://www.tiktok.com/cover.jpg', 'tiktok'), 'http://127.0.0.1:4567/cover.jpg')
  t.equal(mapped.address('https://i.ytimg.com/x.jpg', 'tiktok'), null)
  t.equal(mapped.address('not a url', 'tiktok'), null)
  t.equal(mapped.address(null, 'tiktok'), null)
  const plain = createPlatformFetcher({})
  t.equal(plain.target(new URL('https://p16.tiktokcdn.com/a.jpg'), 'tiktok'), 'https://p16.tiktokcdn.com/a.jpg', 'in production the address itself')
})

t.test('settings: VIDEO_PLATFORM_ORIGINS off by default, exact when set, refused in production; AI_TRANSCRIBE off by default', async t => {
  const base = { DATA_DIR: await mkdtemp(path.join(tmpdir(), 'video-config-')), JWT_SECRET: 'a'.repeat(32), ADMIN_JWT_SECRET: 'b'.repeat(32) }
  t.same((await loadConfig(base)).videoImport, { transcribe: false, transcribeModel: 'whisper-1', platformOrigins: {} })
  const set = await loadConfig({ ...base, AI_TRANSCRIBE: 'true', AI_TRANSCRIBE_MODEL: 'whisper-large', VIDEO_PLATFORM_ORIGINS: 'www.tiktok.com=http://127.0.0.1:4567' })
  t.same(set.videoImport, { transcribe: true, transcribeModel: 'whisper-large', platformOrigins: { 'www.tiktok.com': 'http://127.0.0.1:4567' } })
  await t.rejects(loadConfig({ ...base, VIDEO_PLATFORM_ORIGINS: 'example.com=http://127.0.0.1:1' }), /VIDEO_PLATFORM_ORIGINS entry "example.com=http:\/\/127.0.0.1:1": not a video platform host/)
  await t.rejects(loadConfig({ ...base, NODE_ENV: 'production', STORAGE_PUBLIC_URL: 'https://files.example.com', VIDEO_PLATFORM_ORIGINS: 'www.tiktok.com=http://127.0.0.1:1' }),
    /VIDEO_PLATFORM_ORIGINS is for tests only and refused in production/)
})

t.test('TikTok pages: the rehydration data, the older SIGI_STATE, statuses that say the post is gone, private items', async t => {
  const subtitles = [{ url: 'https://v16-webapp.tiktok.com/sub/de.vtt', language: 'deu-DE' }, { url: 'https://v16-webapp.tiktok.com/sub/en.vtt', language: 'eng-US' },
    { url: 'https://v16-webapp.tiktok.com/sub/en.srt', language: 'eng-US', format: 'srt' }, { url: 'javascript:alert(1)', language: 'eng-US' }]
  const read = readVideoPage(tiktokPage({ ...ITEM, subtitles, music: { playUrl: 'https://sf16.tiktokcdn.com/music.mp3', original: true } }), 'tiktok', TIKTOK_ID)
  t.same(read, {
    ok: true,
    post: {
      platform: 'tiktok',
      id: TIKTOK_ID,
      handle: 'chef.jo',
      authorName: 'Chef Jo',
      title: null,
      caption: GARLIC_PASTA_CAPTION,
      thumbnailUrl: `https://p16-sign-va.tiktokcdn.com/obj/tos-maliva-p-0068/cover-${TIKTOK_ID}.jpeg`,
      durationSeconds: 42,
      subtitles: [{ url: 'https://v16-webapp.tiktok.com/sub/en.vtt', language: 'eng-US', generated: true }, { url: 'https://v16-webapp.tiktok.com/sub/de.vtt', language: 'deu-DE', generated: true }],
      audioUrl: 'https://sf16.tiktokcdn.com/music.mp3',
      source: 'rehydration'
    }
  }, 'English first; only WebVTT tracks with http(s) addresses; the original sound as audio')
  const noSound = readVideoPage(tiktokPage(ITEM), 'tiktok', null)
  t.equal(noSound.ok && noSound.post.audioUrl, `https://v16-webapp-prime.tiktok.com/video/tos/${TIKTOK_ID}.mp4`, 'else the video, whose sound is the speech')

  const sigi = readVideoPage(sigiPage(ITEM), 'tiktok', TIKTOK_ID)
  t.match(sigi, { ok: true, post: { id: TIKTOK_ID, handle: 'chef.jo', authorName: 'Chef Jo', source: 'sigi-state', caption: GARLIC_PASTA_CAPTION } })
  t.match(readVideoPage(sigiPage(ITEM), 'tiktok', null), { ok: true, post: { id: TIKTOK_ID } }, 'without the id: the module\'s first item')
  t.same(readVideoPage(sigiPage(ITEM).replace(/"ItemModule":\{.*?\},"UserModule"/, '"ItemModule":{},"UserModule"'), 'tiktok', TIKTOK_ID),
    { ok: false, reason: 'TikTok: the page holds no post (it may be private, removed or blocked in this region)' })

  t.same(readVideoPage(tiktokUnavailablePage(10204, ''), 'tiktok', null), { ok: false, reason: 'TikTok: the video was removed or does not exist' })
  t.same(readVideoPage(tiktokUnavailablePage(10216, 'private'), 'tiktok', null), { ok: false, reason: 'TikTok: the video is private' })
  t.same(readVideoPage(tiktokUnavailablePage(99, ''), 'tiktok', null), { ok: false, reason: 'TikTok: the post is not available (status 99)' })
  const privateItem = tiktokPage(ITEM).replace('"privateItem":false', '"privateItem":true')
  t.same(readVideoPage(privateItem, 'tiktok', null), { ok: false, reason: 'TikTok: the video is private' })
  const noItem = '<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application/json">{"__DEFAULT_SCOPE__":{"webapp.app-context":{}}}</script>'
  t.same(readVideoPage(noItem, 'tiktok', null), { ok: false, reason: 'TikTok: the page holds no post (it may be private, removed or blocked in this region)' })

  const markup = readVideoPage(tiktokPage({ ...ITEM, desc: '1 egg<script>alert(1)</script>\n<img src=x onerror=alert(1)>2 cups flour', nickname: '<b onclick=x()>Jo</b>' }), 'tiktok', null)
  t.match(markup, { ok: true, post: { caption: '1 egg\n<img src=x>2 cups flour', authorName: '<b>Jo</b>' } }, 'page text is sanitized as a client\'s text is')
  // Wrong types anywhere are passed over, never trusted.
  const odd = tiktokPage({ ...ITEM, id: 'abc' }).replace('"duration":42', '"duration":"forever"').replace('"uniqueId":"chef.jo"', '"uniqueId":{"x":1}')
  t.match(readVideoPage(odd, 'tiktok', null), { ok: true, post: { id: null, handle: null, durationSeconds: null } })
  t.match(readVideoPage('<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__">{not json</script><meta property="og:description" content="x">', 'tiktok', null),
    { ok: true, post: { source: 'meta', caption: 'x' } }, 'broken JSON: the meta tags')
})

t.test('YouTube pages: the player response, its caption tracks as WebVTT, statuses; Instagram and every fallback: meta tags', async t => {
  const read = readVideoPage(youtubePage({ id: 'abcDEF12345', title: 'Pasta &amp; more', description: 'desc', channel: 'Chef', captions: [{ lang: 'de' }, { lang: 'en', kind: 'asr' }, { lang: 'en' }] }), 'youtube')
  t.match(read, {
    ok: true,
    post: {
      id: 'abcDEF12345',
      authorName: 'Chef',
      title: 'Pasta &amp; more',
      caption: 'desc',
      durationSeconds: 58,
      thumbnailUrl: 'https://i.ytimg.com/vi/abcDEF12345/maxresdefault.jpg',
      audioUrl: 'https://rr1---sn-test.googlevideo.com/videoplayback?id=abcDEF12345&itag=140',
      source: 'player-response'
    }
  })
  t.same(read.ok && read.post.subtitles.map(s => s.url), [
    'https://www.youtube.com/api/timedtext?v=abcDEF12345&lang=en&fmt=vtt',
    'https://www.youtube.com/api/timedtext?v=abcDEF12345&lang=en&kind=asr&fmt=vtt',
    'https://www.youtube.com/api/timedtext?v=abcDEF12345&lang=de&fmt=vtt'
  ], 'written English, generated English, then the rest; always fmt=vtt')
  t.same(readVideoPage(youtubePage({ id: 'abcDEF12345', title: '', description: '', channel: '', status: { status: 'ERROR', reason: 'Video unavailable' } }), 'youtube'),
    { ok: false, reason: 'YouTube: Video unavailable' })
  t.same(readVideoPage('<script>var ytInitialPlayerResponse = {"playabilityStatus":{"status":"UNPLAYABLE"}};</script>', 'youtube'),
    { ok: false, reason: 'YouTube: the video is not available (UNPLAYABLE)' })
  t.same(readVideoPage('<script>var ytInitialPlayerResponse = {"playabilityStatus":{"status":"OK"}};</script>', 'youtube'),
    { ok: false, reason: 'YouTube: the page holds no video details' })
  t.match(readVideoPage('<meta property="og:title" content="Tacos &amp; Salsa"><meta property="og:description" content="2 tortillas">', 'youtube'),
    { ok: true, post: { title: 'Tacos & Salsa', caption: '2 tortillas', source: 'meta' } })

  const insta = readVideoPage(instagramPage({ code: 'C1a2B3c4D5e', handle: 'chef.jo', name: 'Chef Jo', caption: 'Soup & "bread"\n1 onion' }), 'instagram')
  t.match(insta, { ok: true, post: { handle: 'chef.jo', authorName: 'Chef Jo', caption: 'Soup & "bread"\n1 onion', thumbnailUrl: 'https://scontent.cdninstagram.com/v/t51.2885-15/C1a2B3c4D5e.jpg', audioUrl: 'https://scontent.cdninstagram.com/o1/v/t16/C1a2B3c4D5e.mp4' } })
  t.match(readVideoPage('<meta name="description" content="Just a caption, no counts">', 'instagram'), { ok: true, post: { handle: null, caption: 'Just a caption, no counts' } })
  t.same(readVideoPage('<html><title>Login</title></html>', 'instagram'), { ok: false, reason: 'Instagram: the page holds no post (it may be private, removed or blocked in this region)' })
})

t.test('the page scanner: scripts by id (never inside another script), assigned objects, meta tags and attributes', async t => {
  const decoy = '<script>var s = \'<script id="__X__">{"fake":true}</script>\'</script><script type="application/json" id="__X__">{"real":true}</script>'
  t.equal(scriptById(decoy, '__X__'), '{"real":true}', 'a script element\'s text ends at the first </script, as in a browser: the decoy is inside one')
  t.equal(scriptById('<script>document.write("<script id=__X__>")</script><script id=__X__>1</script>', '__X__'), '1')
  t.equal(scriptById('<script id="__X__">unclosed', '__X__'), 'unclosed')
  t.equal(scriptById('<script id="other">x', '__X__'), null)
  t.equal(scriptById(`<script ${'a'.repeat(9000)}>x</script><script id="__X__">y</script>`, '__X__'), 'y', 'an overlong tag is skipped')

  t.equal(assignedObject('var ytInitialPlayerResponse = null; var ytInitialPlayerResponse = {"a":"}{","b":{"c":"\\"}"}};var x = 1', 'ytInitialPlayerResponse'),
    '{"a":"}{","b":{"c":"\\"}"}}', 'braces inside strings and escaped quotes do not count')
  t.equal(assignedObject('window["ytInitialPlayerResponse"] = {"a":1};', 'ytInitialPlayerResponse'), '{"a":1}')
  t.equal(assignedObject('ytInitialPlayerResponse = {"never":', 'ytInitialPlayerResponse'), null)
  t.equal(objectEnd('{{}}', 0), 4)

  const { meta, title } = pageMeta('<title> A &amp; B </title><meta property="OG:Title" content="First"><meta property="og:title" content="Second"><meta name=description content=plain>')
  t.equal(title, 'A & B')
  t.equal(meta.get('og:title'), 'First', 'the first of each wins')
  t.equal(meta.get('description'), 'plain')
  t.same([...attributes(' a="1" B=\'2\' c=3 d e = "&lt;x&gt;" / ')], [['a', '1'], ['b', '2'], ['c', '3'], ['d', ''], ['e', '<x>']])
})

t.test('WebVTT to text: cue text only, tags and timings gone, rolling repeats once, bounded', async t => {
  t.equal(webVttText(VTT), 'So first you boil the spaghetti\nin well salted water.\nMelt the butter & fry the garlic until golden.\nPour in the cream and toss everything together.')
  t.equal(webVttText('WEBVTT\r\n\r\nSTYLE\r\n::cue { color: red }\r\n\r\n00:01.000 --> 00:02.000\r\n<b>Bold</b> &lt;3\r\n'), 'Bold <3', 'CRLF, STYLE blocks')
  t.equal(webVttText('WEBVTT\n\n00:01.000 --> 00:02.000\n<unclosed tag\n'), '')
  t.equal(webVttText('not a subtitle file at all'), '')
  const long = `WEBVTT\n\n${Array.from({ length: 5000 }, (_, i) => `00:00.000 --> 00:01.000\nline number ${i}\n`).join('\n')}`
  t.ok(webVttText(long, 1000).length <= 1000, 'the text kept is bounded')
})

t.test('captions: hashtags as tags, steps from speech, the text importer\'s reading, titles and credit', async t => {
  t.same(splitHashtags('Spicy noodles #noodles #FYP\nAdd #garlic and chili\n#spicy #Noodles #dinner'), {
    text: 'Spicy noodles\nAdd garlic and chili',
    tags: ['noodles', 'garlic', 'spicy', 'dinner']
  }, 'trailing and lone hashtag lines go; a hashtag inside a sentence keeps its word')
  t.equal(spokenSteps('First boil it. Then drain! Serve?'), 'First boil it.\n\nThen drain!\n\nServe?')
  const run = spokenSteps(`${'word '.repeat(200)}`).split('\n\n')
  t.ok(run.length >= 3 && run.every(part => part.length <= 400), 'a sentence without an end is cut at words')
  t.same(spokenSteps('x'.repeat(1000)).split('\n\n').map(part => part.length), [300, 300, 400], 'and without spaces at 300 characters')

  const own = textRecipe({ caption: splitHashtags(GARLIC_PASTA_CAPTION).text, subtitles: webVttText(VTT), transcript: null })
  t.match(own, { spoken: false, captionIngredients: true }, 'a caption with its own method does not need the subtitles')
  t.equal(own?.preview.instructions.length, 3)
  const spoken = textRecipe({ caption: splitHashtags(INGREDIENTS_ONLY_CAPTION).text, subtitles: null, transcript: 'Boil the spaghetti. Melt the butter.' })
  t.match(spoken, { spoken: true, captionIngredients: true })
  t.same(spoken?.preview.instructions.map(s => s.text), ['Boil the spaghetti.', 'Melt the butter.'])
  const onlySpoken = textRecipe({ caption: 'Dinner tonight', subtitles: 'You need 200g spaghetti\n2 tbsp butter', transcript: null })
  t.match(onlySpoken, { spoken: true, captionIngredients: false })
  t.equal(textRecipe({ caption: 'Sunset at the beach', subtitles: 'what a view', transcript: null }), null)
  t.equal(textRecipe({ caption: 'Just vibes today', subtitles: null, transcript: null }), null)

  t.equal(captionTitle('\n  Creamy pasta 🍝 ready in 15 minutes! Serves 2\nmore'), 'Creamy pasta 🍝 ready in 15 minutes!')
  t.equal(captionTitle(`${'word '.repeat(40)}`), `${'word '.repeat(24).trim()}…`)
  t.equal(captionTitle(''), null)
  t.equal(videoTitle({ platform: 'youtube', title: 'Crispy Potatoes #shorts' }, 'Ingredients list', ''), 'Crispy Potatoes')
  t.equal(videoTitle({ platform: 'tiktok', title: null }, 'Untitled recipe', 'Lemon bars!\n1 lemon'), 'Lemon bars!')
  t.equal(videoTitle({ platform: 'tiktok', title: null }, null, ''), 'TikTok recipe')
  const post = { platform: 'youtube' as const, handle: null, authorName: 'Chef Channel', title: 'x', id: null, caption: '', thumbnailUrl: null, durationSeconds: null, subtitles: [], audioUrl: null, source: 'meta' }
  t.equal(creditLine(post), 'From a YouTube video by Chef Channel.')
  t.equal(creditLine({ ...post, platform: 'instagram', handle: 'chef.jo', authorName: 'chef.jo' }), 'From an Instagram video by @chef.jo.')
  t.equal(creditLine({ ...post, authorName: null }), 'From a YouTube video.')
})

t.test('the model: prompt with the video\'s words as data, repair, grounding in what the video says', async t => {
  const words = { caption: '200g spaghetti\n2 tbsp butter\n3 cloves garlic', subtitles: 'boil the spaghetti, melt the butter', transcript: 'add cream' }
  const prompt = videoPrompt({ platform: 'tiktok', title: null }, words)
  t.match(prompt, /<<<CAPTION\n200g spaghetti[\s\S]*<<<SUBTITLES\nboil[\s\S]*<<<TRANSCRIPT\nadd cream/)
  t.match(videoPrompt({ platform: 'youtube', title: 'Pasta' }, { caption: '', subtitles: null, transcript: null }), /<<<TITLE\nPasta\nTITLE>>>[\s\S]*<<<CAPTION\n\(none\)/)

  const said = wordSet(`${words.caption} ${words.subtitles} ${words.transcript}`)
  const recipe = (names: string[]) => ({ ingredients: names.map(name => ({ text: name, name, quantity: null, unit: null, note: null, group: null })) })
  t.same(checkVideoGrounding(said, ['spaghetti', 'butter', 'garlic'], recipe(['spaghetti', 'unsalted butter', 'garlic cloves', 'salt'])),
    { ok: true, invented: [], dropped: [] }, 'half the words of a name suffice; a basic or two may be added')
  t.same(checkVideoGrounding(said, ['spaghetti', 'butter', 'garlic'], recipe(['chicken', 'rice', 'soy sauce', 'spaghetti'])),
    { ok: false, invented: ['chicken', 'rice', 'soy sauce'], dropped: ['butter', 'garlic'] })
  t.same(checkVideoGrounding(said, [], recipe(['spaghetti'])), { ok: true, invented: [], dropped: [] })

  const replies: Array<Partial<Completion>> = []
  const sent: string[][] = []
  const chat: ChatClient = {
    model: 'm',
    async complete (messages) {
      sent.push(messages.map(m => m.content))
      return { content: null, refusal: null, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, model: 'm', finishReason: 'stop', ...replies.shift() }
    }
  }
  const good = JSON.stringify({ title: 'Pasta', ingredients: ['200 g spaghetti', '2 tbsp butter'], instructions: ['Boil.', 'Toss.'] })
  const invented = JSON.stringify({ title: 'Pasta', ingredients: ['chicken', 'rice'], instructions: ['Cook.'] })
  const options = () => ({ stats: newStats('m'), expected: ['spaghetti', 'butter'] })

  replies.push({ content: 'nope' }, { content: good })
  t.equal((await structureWithModel(chat, { platform: 'tiktok', title: null }, words, options())).title, 'Pasta', 'repaired once')
  replies.push({ content: invented }, { content: invented })
  await t.rejects(structureWithModel(chat, { platform: 'tiktok', title: null }, words, options()), UnusableRecipe, 'grounded once, then given up')
  t.match(sent.at(-1)?.at(-1), /not in the caption, subtitles or transcript: chicken, rice/)
  replies.push({ content: null, refusal: 'not food' })
  await t.rejects(structureWithModel(chat, { platform: 'tiktok', title: null }, words, options()), ModelRefusal)
  replies.push({ content: '{"refusal":"a car video"}' })
  await t.rejects(structureWithModel(chat, { platform: 'tiktok', title: null }, words, { ...options(), read: readRecipe }), ModelRefusal)
  replies.push({ content: 'x' }, { content: 'y' })
  await t.rejects(structureWithModel(chat, { platform: 'tiktok', title: null }, words, options()), UnusableRecipe, 'repaired once, then given up')
})

// Counted work (test/helpers/work.ts): a quarter of each hostile input against all of it must grow about 4x (16x if
// quadratic). JSON.parse is charged by its input's length; everything the scanners call is charged as it searches.
t.test('hostile pages, subtitles and captions: work linear in their size', async t => {
  const hostile = (n: number): Record<string, [string, () => unknown]> => {
    const nested = `${'['.repeat(n)}${']'.repeat(n)}`
    const cases: Record<string, string> = {
      'deeply nested rehydration JSON': `<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__">{"__DEFAULT_SCOPE__":{"webapp.video-detail":{"itemInfo":{"itemStruct":{"id":"1","desc":${nested}}}}}}</script>`,
      'huge rehydration JSON': `<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__">${JSON.stringify({ __DEFAULT_SCOPE__: { 'webapp.video-detail': { itemInfo: { itemStruct: { desc: 'x'.repeat(n * 2), author: { uniqueId: 'a', nickname: ' '.repeat(n) } } } } } })}</script>`,
      'unclosed script tags': '<script '.repeat(n / 8),
      'scripts without ids': '<script>x</script>'.repeat(n / 18),
      'many meta tags': '<meta property="og:description" content="a">'.repeat(n / 45),
      'meta tags with endless attributes': `<meta ${'a='.repeat(n / 2)}>`,
      'repeated assignment names': 'ytInitialPlayerResponse = null;'.repeat(n / 31),
      'unclosed player response': `var ytInitialPlayerResponse = ${'{"a":'.repeat(n / 5)}`,
      'many unclosed player responses': 'ytInitialPlayerResponse={'.repeat(n / 25)
    }
    return Object.fromEntries(Object.entries(cases).map(([name, page]) => [name, [page, () => {
      readVideoPage(page, 'tiktok', null)
      readVideoPage(page, 'youtube', null)
      readVideoPage(page, 'instagram', null)
    }]]))
  }
  const size = 1024 * 1024
  const [quarter, full] = [hostile(size / 4), hostile(size)]
  for (const name of Object.keys(full)) {
    const small = workOf(quarter[name][1])
    const large = workOf(full[name][1])
    t.ok(large / small < LINEAR_GROWTH, `${name}: work ${large} for ${full[name][0].length} characters, ${(large / small).toFixed(2)}x a quarter of it`)
  }

  const texts = (n: number): Record<string, () => unknown> => ({
    'subtitles of tags': () => webVttText(`WEBVTT\n\n00:00.000 --> 00:01.000\n${'<c>'.repeat(n / 3)}`, n),
    'subtitles of open tags': () => webVttText(`WEBVTT\n\n00:00.000 --> 00:01.000\n${'<'.repeat(n)}`, n),
    'subtitles of cues': () => webVttText(`WEBVTT\n\n${'00:00.000 --> 00:01.000\nsame line\n\n'.repeat(n / 36)}`, n),
    'hashtag storms': () => splitHashtags(`${'#a'.repeat(n / 2)}\n${'#tag '.repeat(n / 5)}`),
    'spoken text without ends': () => spokenSteps('word'.repeat(n / 4)),
    'words of a long transcript': () => wordSet(`${'(('.repeat(n / 4)}${'))'.repeat(n / 4)}`)
  })
  const textSize = 128 * 1024
  const [smallTexts, fullTexts] = [texts(textSize / 4), texts(textSize)]
  for (const name of Object.keys(fullTexts)) {
    const small = workOf(smallTexts[name])
    const large = workOf(fullTexts[name])
    t.ok(large / small < LINEAR_GROWTH, `${name}: ${(large / small).toFixed(2)}x a quarter of it`)
  }
})
