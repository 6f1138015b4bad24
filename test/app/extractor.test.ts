// Recipe extraction runs in worker threads: a heavy page does not hold up other requests, a runaway one is abandoned.
import t from 'tap'
import { EXTRACT_LIMITS } from '../../plugins/external/extractor.js'
import { bearer, build, json, registerUser } from '../helper.js'

const recipe = (name: string) => `<script type="application/ld+json">${JSON.stringify({ '@type': 'Recipe', name, recipeIngredient: ['1 egg'], recipeInstructions: ['Boil.'] })}</script>`
/** About 2 MB of ordinary markup around a recipe: hundreds of milliseconds of parsing. */
const heavy = `<!doctype html><html><head>${recipe('Heavy Egg')}</head><body>${'<div><p>filler <b>text</b> &amp; more</p><ul><li>a</li><li>b</li></ul></div>'.repeat(25_000)}</body></html>`

t.test('a heavy page is read off the event loop: requests are answered while it is being read', async t => {
  const app = await build(t)
  let read = false
  const reading = app.extractor.extract(heavy, 'https://example.com/egg').then(result => { read = true; return result })
  const health = await app.inject({ method: 'GET', url: '/healthz' })
  t.equal(health.statusCode, 200)
  t.equal(read, false, 'the health check was answered before the page was read')
  const preview = await reading
  t.equal(preview?.title, 'Heavy Egg')
  t.same(preview?.ingredients.map(i => i.text), ['1 egg'])
})

t.test('a page whose reading takes too long is abandoned and said to be (504), not "no recipe"; the pool goes on', async t => {
  const app = await build(t)
  const limit = EXTRACT_LIMITS.timeoutMs
  EXTRACT_LIMITS.timeoutMs = 1
  t.teardown(() => { EXTRACT_LIMITS.timeoutMs = limit })
  await t.rejects(app.extractor.extract(heavy, 'https://example.com/egg'), { code: 'PAGE_READ_TIMEOUT', statusCode: 504 })
  const user = await registerUser(app)
  const res = await app.inject({ method: 'POST', url: '/api/recipe-import/preview', headers: bearer(user), payload: { url: 'https://example.com/egg', html: heavy } })
  t.equal(res.statusCode, 504)
  t.same(json(res), { success: false, error: 'The page took too long to read', details: ['reading the page took longer than 0.001 s'] }, 'the envelope says what happened')
  EXTRACT_LIMITS.timeoutMs = limit
  const small = await app.extractor.extract(`<html><head>${recipe('Small Egg')}</head></html>`, 'https://example.com/small')
  t.equal(small?.title, 'Small Egg', 'a new worker reads the next page')
})

t.test('waiting for a worker counts apart from the reading: too long a wait is 503 busy, and the page\'s limit starts when its reading does', async t => {
  const app = await build(t)
  const { startWaitMs, timeoutMs } = EXTRACT_LIMITS
  t.teardown(() => { Object.assign(EXTRACT_LIMITS, { startWaitMs, timeoutMs }) })
  // Every thread takes a heavy page first (hundreds of milliseconds each): the next page waits in the queue.
  const busy = Array.from({ length: EXTRACT_LIMITS.threads }, async (_, i) => await app.extractor.extract(heavy, `https://example.com/heavy${i}`))
  EXTRACT_LIMITS.startWaitMs = 1
  await t.rejects(app.extractor.extract(recipe('Waiting Egg'), 'https://example.com/wait'), { code: 'IMPORT_BUSY', statusCode: 503 })
  EXTRACT_LIMITS.startWaitMs = startWaitMs
  t.ok((await Promise.all(busy)).every(preview => preview?.title === 'Heavy Egg'), 'the pages ahead were read')
  // Queued behind heavy pages again, a small page with a limit shorter than their reading is still read: its time
  // ran only once its reading began.
  const ahead = Array.from({ length: EXTRACT_LIMITS.threads }, async (_, i) => await app.extractor.extract(heavy, `https://example.com/ahead${i}`))
  EXTRACT_LIMITS.timeoutMs = 5_000
  const read = await app.extractor.extract(`<html><head>${recipe('Patient Egg')}</head></html>`, 'https://example.com/patient')
  t.equal(read?.title, 'Patient Egg')
  await Promise.all(ahead)
})
