// JSON that PostgreSQL wrote, embedded as text or as the bytes it sent.
import t from 'tap'
import { objectJson, RawJson } from '../../lib/raw-json.js'

t.test('objectJson embeds raw JSON as text or bytes and encodes the rest', async t => {
  const recipes = [{ title: 'Crème brûlée', tags: ['café'] }]
  const bytes = new RawJson(Buffer.from(JSON.stringify(recipes)))
  const text = new RawJson(JSON.stringify(recipes))
  const pagination = { page: 1, note: 'a "quoted" ünïcode' }

  const fromText = objectJson({ recipes: text, pagination })
  t.type(fromText, 'string', 'text stays text')
  t.strictSame(JSON.parse(fromText as string), { recipes, pagination })

  const fromBytes = objectJson({ recipes: bytes, pagination, skipped: undefined })
  t.ok(Buffer.isBuffer(fromBytes), 'bytes make the body bytes')
  t.strictSame(JSON.parse(fromBytes.toString()), { recipes, pagination }, 'the same JSON, UTF-8 intact')
  t.strictSame(JSON.parse(objectJson({ first: bytes, second: bytes, n: 2 }).toString()), { first: recipes, second: recipes, n: 2 }, 'several byte values')
  t.equal(objectJson({}), '{}')
  t.equal(bytes.text, text.text, 'text decodes bytes')
  const view = Buffer.from('xx[1]yy').subarray(2, 5)
  t.equal(new RawJson(view).text, '[1]', 'a view into a larger buffer decodes only its own bytes')
})
