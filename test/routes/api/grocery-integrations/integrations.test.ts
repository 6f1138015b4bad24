import { parse } from 'csv-parse/sync'
import t from 'tap'
import { build, expectValidationError, json, registerUser } from '../../../helper.js'
import { createList, groceryRequest as as, makeFamily } from '../../../helpers/grocery.js'

t.test('providers: downloads available, shopping services listed as not configured', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const res = await as(app, user, 'GET', '/api/grocery-integrations')
  t.equal(res.statusCode, 200)
  const { providers, pagination } = json(res)
  t.match(pagination, { page: 1, total: 6, hasNext: false })
  t.same(providers.filter((p: { available: boolean }) => p.available).map((p: { id: string }) => p.id), ['text', 'csv', 'json'])
  t.match(providers.find((p: { id: string }) => p.id === 'csv'), { kind: 'download', contentType: 'text/csv; charset=utf-8', reason: null })
  for (const id of ['instacart', 'amazon-fresh']) {
    const provider = providers.find((p: { id: string }) => p.id === id)
    t.match(provider, { kind: 'shopping-service', available: false, contentType: null }, `${id} is listed, unavailable`)
    t.match(provider.reason, /not configured/i, 'with the reason')
  }
  const page2 = json(await as(app, user, 'GET', '/api/grocery-integrations?page=2&limit=4'))
  t.equal(page2.providers.length, 2, 'paged like every list')
  t.equal((await app.inject('/api/grocery-integrations')).statusCode, 401)
})

t.test('export: text, CSV and JSON downloads', async t => {
  const app = await build(t)
  const [owner, member, stranger] = await Promise.all([registerUser(app), registerUser(app), registerUser(app)])
  const family = await makeFamily(app, owner, [member])
  const list = await createList(app, owner, {
    name: 'Weekly shop',
    familyId: family.id,
    items: [
      { name: 'Milk', quantity: 1.5, unit: 'l' },
      { name: 'apples', quantity: 6, checked: true, note: 'Pink Lady, or "Gala"' },
      { name: '=HYPERLINK("http://evil.example","click")', category: 'other' },
      { name: '+SUM(1,2)', note: '-2+3', category: 'other' },
      { name: '@cmd', note: 'line one\nline two', category: 'other' }
    ]
  })
  const download = (user = owner, query = '') => as(app, user, 'GET', `/api/grocery-integrations/export/${list.id}${query}`)

  const text = await download(owner, '?format=text')
  t.equal(text.statusCode, 200)
  t.equal(text.headers['content-type'], 'text/plain; charset=utf-8')
  t.equal(text.headers['content-disposition'], 'attachment; filename="weekly-shop.txt"')
  t.equal(text.headers['x-content-type-options'], 'nosniff')
  t.match(text.headers['cache-control'], /no-store/)
  t.equal(text.body.split('\n').slice(0, 8).join('\n'), 'Weekly shop\n===========\n\nProduce\n[x] 6 apples (Pink Lady, or "Gala")\n\nDairy\n[ ] 1.5 l Milk')
  t.equal((await download()).body, text.body, 'text is the default format')

  const csv = await download(owner, '?format=csv')
  t.equal(csv.statusCode, 200)
  t.equal(csv.headers['content-type'], 'text/csv; charset=utf-8')
  t.equal(csv.headers['content-disposition'], 'attachment; filename="weekly-shop.csv"')
  t.ok(csv.body.endsWith('\r\n') && !/[^\r]\n(?!line two)/.test(csv.body), 'CRLF record ends')
  const rows: string[][] = parse(csv.body)
  t.same(rows[0], ['Name', 'Quantity', 'Unit', 'Category', 'Checked', 'Note'])
  t.same(rows.slice(1), [
    ['apples', '6', '', 'Produce', 'yes', 'Pink Lady, or "Gala"'],
    ['Milk', '1.5', 'l', 'Dairy', 'no', ''],
    ['\'=HYPERLINK("http://evil.example","click")', '', '', 'Other', 'no', ''],
    ['\'+SUM(1,2)', '', '', 'Other', 'no', '\'-2+3'],
    ['\'@cmd', '', '', 'Other', 'no', 'line one\nline two']
  ], 'every cell reads back; formulas are defused with a leading apostrophe')

  const asJson = await download(owner, '?format=json')
  t.equal(asJson.statusCode, 200)
  t.match(asJson.headers['content-type'], /^application\/json/)
  t.equal(asJson.headers['content-disposition'], 'attachment; filename="weekly-shop.json"')
  const exported = json(asJson)
  t.match(exported.groceryList, { id: list.id, name: 'Weekly shop', itemCount: 5 })
  t.equal(exported.groceryList.items.length, 5)
  t.ok(Date.parse(exported.exportedAt) > 0)

  const unchecked = await download(owner, '?format=csv&includeChecked=false')
  t.notOk(parse(unchecked.body).some((row: string[]) => row[0] === 'apples'), 'includeChecked=false leaves checked items out')

  t.equal((await download(member, '?format=csv')).body, csv.body, 'family members download the shared list')
  const refused = await download(stranger, '?format=csv')
  t.equal(refused.statusCode, 404, 'strangers: 404')
  t.notMatch(refused.body, /apples|Milk/)
  t.equal((await as(app, owner, 'GET', '/api/grocery-integrations/export/no-such-list')).statusCode, 404)
  expectValidationError(t, await download(owner, '?format=xml'), 'format')
})

t.test('export file names are safe', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  const exportOf = async (name: string) => {
    const list = await createList(app, owner, { name })
    return (await as(app, owner, 'GET', `/api/grocery-integrations/export/${list.id}?format=csv`)).headers['content-disposition']
  }
  t.equal(await exportOf('Crème brûlée night'), 'attachment; filename="creme-brulee-night.csv"; filename*=UTF-8\'\'cr%C3%A8me-br%C3%BBl%C3%A9e-night.csv',
    'an ASCII filename, and filename* (RFC 6266) for the rest')
  t.equal(await exportOf('寿司 🍣'), 'attachment; filename="grocery-list.csv"; filename*=UTF-8\'\'%E5%AF%BF%E5%8F%B8.csv')
  const hostile = await exportOf('../../x"; filename=evil.sh\r\nSet-Cookie: a=b')
  t.equal(hostile, 'attachment; filename="x-filename-evil-sh-set-cookie-a-b.csv"', 'no quotes, CR/LF or path characters')
})

t.test('the OpenAPI document describes each download type', async t => {
  const app = await build(t)
  const doc = json(await app.inject('/api/docs/json'))
  const op = doc.paths['/api/grocery-integrations/export/{listId}'].get
  t.equal(op.operationId, 'groceryIntegrations.export')
  const content = op.responses['200'].content
  t.same(Object.keys(content).sort(), ['application/json', 'text/csv', 'text/plain'])
  t.equal(content['text/csv'].schema.$ref, '#/components/schemas/GroceryListCsv')
  t.equal(content['text/plain'].schema.$ref, '#/components/schemas/GroceryListText')
  t.equal(content['application/json'].schema.$ref, '#/components/schemas/GroceryListExport')
  t.match(doc.components.schemas.GroceryListCsv.description, /RFC 4180/)
  t.ok(op.responses['200'].headers['content-disposition'], 'the Content-Disposition header is documented')
  t.same(op.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name).sort(), ['format', 'includeChecked'])
  t.match(doc.paths['/api/grocerylists/from-mealplan'].post.description, /density/, 'the merge rules say mass and volume do not mix')
  t.match(doc.paths['/api/grocerylists'].post.description, /500 items a list and 200 lists a user/, 'bounds are documented')
})
