// The video import's page reader (lib/video-import/page-reader.ts): a large page is read on its worker thread, and the
// reader's two refusals, which the import answers 503 (busy: the queue is full or no thread took the page in time) and
// 504 (the reading ran past its limit), happen as stated. Limits are made small so a few pages reach them.
import t from 'tap'
import { createPageReader, READ_ON_THREAD_CHARS, ReaderBusy, ReadTimedOut } from '../../lib/video-import/page-reader.js'
import { readVideoPage } from '../../lib/video-import/page.js'
import { GARLIC_PASTA_CAPTION, TIKTOK_ID, tiktokPage } from '../fixtures/video/pages.js'

const ITEM = { id: TIKTOK_ID, handle: 'chef.jo', nickname: 'Chef Jo', desc: GARLIC_PASTA_CAPTION }

/** A post's page padded past the on-thread size, so it goes to the worker. */
const largePage = tiktokPage(ITEM, `<p>${'recipe video '.repeat(READ_ON_THREAD_CHARS / 6)}</p>`)

/**
 * A page whose embedded state is a few megabytes of JSON beside the post: parsing it takes tens of milliseconds on
 * any machine, far past the 1 ms limit the timeout test sets (reading only starts the clock once the thread begins).
 */
const slowPage = largePage.replace('"webapp.app-context"',
  `"webapp.filler":${JSON.stringify(Array.from({ length: 150_000 }, (_, i) => ({ index: i, text: 'filler' })))},"webapp.app-context"`)

t.test('a large page is read on the thread, with the same result as on the calling thread', async t => {
  const reader = createPageReader()
  t.teardown(reader.close)
  t.ok(largePage.length > READ_ON_THREAD_CHARS)
  const read = await reader.read(largePage, 'tiktok', TIKTOK_ID)
  t.ok(read.ok && read.post.handle === 'chef.jo' && read.post.caption.startsWith('Creamy garlic butter pasta'), 'the post is read')
  t.same(read, readVideoPage(largePage, 'tiktok', TIKTOK_ID))
})

t.test('a full queue refuses the next page as busy, and the queued pages are still read', async t => {
  const reader = createPageReader({ maxQueued: 2 })
  t.teardown(reader.close)
  // Sent together, while the thread starts: the first page is the thread's, two wait, the other two are refused.
  const reads = Array.from({ length: 5 }, async () => await reader.read(largePage, 'tiktok', TIKTOK_ID))
  const settled = await Promise.allSettled(reads)
  const refused = settled.filter(s => s.status === 'rejected')
  t.equal(refused.length, 2, 'the pages beyond the one being read and the two waiting are refused')
  for (const s of refused) t.ok(s.status === 'rejected' && s.reason instanceof ReaderBusy, 'as busy')
  for (const s of settled.filter(s => s.status === 'fulfilled')) t.ok(s.status === 'fulfilled' && s.value.ok, 'queued pages are read')
})

t.test('a reading past its limit is abandoned as timed out, and the reader goes on with the next page', async t => {
  const reader = createPageReader({ timeoutMs: 1 })
  t.teardown(reader.close)
  await t.rejects(reader.read(slowPage, 'tiktok', TIKTOK_ID), ReadTimedOut)
  const generous = createPageReader()
  t.teardown(generous.close)
  const read = await generous.read(slowPage, 'tiktok', TIKTOK_ID)
  t.ok(read.ok, 'the same page is read within the normal limit')
})

t.test('a thread that does not take the page in time is busy, not a timeout', async t => {
  // The thread's start alone (loading the reader's modules) takes longer than 1 ms.
  const reader = createPageReader({ startWaitMs: 1 })
  t.teardown(reader.close)
  await t.rejects(reader.read(largePage, 'tiktok', TIKTOK_ID), ReaderBusy)
})
