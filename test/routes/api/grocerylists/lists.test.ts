import t from 'tap'
import { build, expectValidationError, json, registerUser } from '../../../helper.js'
import { addItem, createList, getList, groceryRequest as as, leaveFamily, makeFamily } from '../../../helpers/grocery.js'

t.test('grocery lists: create, read, list, rename, delete', async t => {
  const app = await build(t)
  const owner = await registerUser(app)

  const created = await as(app, owner, 'POST', '/api/grocerylists', {
    name: '  Weekly shop ',
    items: [
      { name: ' Milk ', quantity: 2, unit: 'l' },
      { name: 'apples', quantity: 6 },
      { name: 'dish soap', note: 'the green one', category: 'other' },
      { name: 'bread', checked: true }
    ],
    ownerId: 'someone-else',
    userId: 'someone-else'
  })
  t.equal(created.statusCode, 201)
  const list = json(created).groceryList
  t.match(list, { name: 'Weekly shop', userId: owner.id, isOwner: true, familyId: null, mealPlanId: null, itemCount: 4, checkedCount: 1 },
    'trimmed, owned by the caller whatever the body says')
  t.same(list.items.map((i: { name: string, category: string }) => [i.name, i.category]),
    [['apples', 'produce'], ['bread', 'bakery'], ['Milk', 'dairy'], ['dish soap', 'other']], 'items in aisle order, categories guessed from names')
  t.match(list.items.find((i: { name: string }) => i.name === 'Milk'), { quantity: 2, unit: 'l', checked: false, note: null })

  const read = await getList(app, owner, list)
  t.same(read, list, 'GET answers the same list')

  const empty = await createList(app, owner, { name: 'Empty' })
  t.match(empty, { itemCount: 0, checkedCount: 0, items: [] })

  const page = json(await as(app, owner, 'GET', '/api/grocerylists?limit=1'))
  t.match(page.pagination, { page: 1, limit: 1, total: 2, totalPages: 2, hasNext: true, hasPrev: false })
  t.equal(page.groceryLists[0].id, empty.id, 'most recently changed first')
  t.notOk('items' in page.groceryLists[0], 'summaries carry no items')
  await addItem(app, owner, list, { name: 'eggs' })
  const after = json(await as(app, owner, 'GET', '/api/grocerylists')).groceryLists
  t.same(after.map((l: { id: string }) => l.id), [list.id, empty.id], 'adding an item moves the list up')
  t.match(after[0], { itemCount: 5, checkedCount: 1 })

  const renamed = await as(app, owner, 'PUT', `/api/grocerylists/${list.id}`, { name: ' Big shop ' })
  t.equal(renamed.statusCode, 200)
  t.match(json(renamed).groceryList, { name: 'Big shop', itemCount: 5 })

  const deleted = await as(app, owner, 'DELETE', `/api/grocerylists/${list.id}`)
  t.equal(deleted.statusCode, 200)
  t.same(json(deleted), { message: 'Grocery list deleted' })
  t.equal((await as(app, owner, 'GET', `/api/grocerylists/${list.id}`)).statusCode, 404, 'gone')
  t.equal((await as(app, owner, 'DELETE', `/api/grocerylists/${list.id}`)).statusCode, 404, 'deleting twice: 404')
  t.equal((await app.inject('/api/grocerylists')).statusCode, 401, 'sign-in required')
})

t.test('the page is written by PostgreSQL: the same answer as the rows the service maps, odd values included', async t => {
  const app = await build(t)
  const [owner, member, stranger] = await Promise.all([registerUser(app), registerUser(app), registerUser(app)])
  const family = await makeFamily(app, owner, [member])
  const list = await createList(app, owner, {
    name: 'Odd "values" \\ list',
    familyId: family.id,
    items: [
      { name: 'flour', quantity: 0.333, unit: 'cup' },
      { name: 'salt', quantity: 1e-7, note: 'a "pinch" \\ to taste\nor more 🍅' },
      { name: 'eggs', quantity: 12, checked: true },
      { name: 'mystery' }
    ]
  })
  // An aisle this version does not know (written by an older or newer one) reads as "other"; stored timestamps keep
  // microseconds, which both answers truncate to milliseconds.
  await app.db`update grocery_items set category = 'aisle-of-the-future', created_at = '2031-02-03 04:05:06.789999+00' where list_id = ${list.id} and name = 'mystery'`
  await app.db`update grocery_lists set updated_at = '2031-02-03 04:05:06.000001+00' where id = ${list.id}`
  for (const viewer of [owner, member]) {
    const page = await getList(app, viewer, list)
    t.same(page, await app.groceryListService.get(list.id, viewer.id), 'GET answers the service\'s mapped rows')
    t.match(page, { isOwner: viewer === owner, itemCount: 4, checkedCount: 1, updatedAt: '2031-02-03T04:05:06.000Z' })
  }
  const mystery = (await getList(app, owner, list)).items.find((i: { name: string }) => i.name === 'mystery')
  t.match(mystery, { category: 'other', createdAt: '2031-02-03T04:05:06.789Z', recipes: [] })
  t.equal((await as(app, stranger, 'GET', `/api/grocerylists/${list.id}`)).statusCode, 404, 'a stranger: 404')
  const empty = await createList(app, owner, { name: 'Empty' })
  t.same(await getList(app, owner, empty), await app.groceryListService.get(empty.id, owner.id), 'a list without items: the same')
  t.same((await getList(app, owner, empty)).items, [])
})

t.test('validation and bounds', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  const create = (payload: Record<string, unknown>) => as(app, owner, 'POST', '/api/grocerylists', payload)

  expectValidationError(t, await create({}), 'name')
  expectValidationError(t, await create({ name: '   ' }), 'name')
  expectValidationError(t, await create({ name: 'x'.repeat(101) }), 'name')
  t.equal((await create({ name: 'x'.repeat(100) })).statusCode, 201, '100 characters is fine')
  expectValidationError(t, await create({ name: 'L', items: [{ name: 'x'.repeat(201) }] }), 'items[0].name')
  expectValidationError(t, await create({ name: 'L', items: [{ name: ' ' }] }), 'items[0].name')
  expectValidationError(t, await create({ name: 'L', items: [{ name: 'a', unit: 'u'.repeat(31) }] }), 'items[0].unit')
  expectValidationError(t, await create({ name: 'L', items: [{ name: 'a', note: 'n'.repeat(501) }] }), 'items[0].note')
  expectValidationError(t, await create({ name: 'L', items: [{ name: 'a', quantity: 0 }] }), 'items[0].quantity')
  expectValidationError(t, await create({ name: 'L', items: [{ name: 'a', quantity: -1 }] }), 'items[0].quantity')
  const category = await create({ name: 'L', items: [{ name: 'a', category: 'garden' }] })
  expectValidationError(t, category, 'items[0].category')
  t.match(json(category).details.join(), /must be one of produce, bakery, meat, dairy, frozen, pantry, spices, beverages, other/)
  expectValidationError(t, await create({ name: 'L', items: Array.from({ length: 501 }, (_, i) => ({ name: `item ${i}` })) }), 'items')
  const full = await create({ name: 'Full', items: Array.from({ length: 500 }, (_, i) => ({ name: `item ${i}` })) })
  t.equal(full.statusCode, 201, '500 items is fine')
  t.equal(json(full).groceryList.items.length, 500, 'and all of them come back')
  const list = json(full).groceryList
  expectValidationError(t, await as(app, owner, 'PUT', `/api/grocerylists/${list.id}`, { name: '' }), 'name')
  expectValidationError(t, await as(app, owner, 'PUT', `/api/grocerylists/${list.id}`, { name: ' \t ' }), 'name')

  for (const id of ['nope', 'x'.repeat(65), '%00', 'a b']) {
    t.equal((await as(app, owner, 'GET', `/api/grocerylists/${encodeURIComponent(id)}`)).statusCode, 404, `malformed id ${JSON.stringify(id)}: 404`)
  }
  expectValidationError(t, await as(app, owner, 'GET', '/api/grocerylists?limit=51'), 'limit')
})

t.test('sharing with a family: members see and edit, only the owner deletes or re-shares', async t => {
  const app = await build(t)
  const [owner, member, stranger, otherFamilyOwner] = await Promise.all([registerUser(app), registerUser(app), registerUser(app), registerUser(app)])
  const family = await makeFamily(app, owner, [member])
  const otherFamily = await makeFamily(app, otherFamilyOwner, [])
  const list = await createList(app, owner, { name: 'Family shop', items: [{ name: 'milk' }] })

  t.equal((await as(app, member, 'GET', `/api/grocerylists/${list.id}`)).statusCode, 404, 'not shared yet: members do not see it')
  t.equal((await as(app, owner, 'PUT', `/api/grocerylists/${list.id}`, { familyId: otherFamily.id })).statusCode, 404,
    'a family the owner is not in cannot be used (404, as for any family they cannot see)')
  t.equal((await as(app, owner, 'PUT', `/api/grocerylists/${list.id}`, { familyId: 'no-such-family' })).statusCode, 404)
  const shared = await as(app, owner, 'PUT', `/api/grocerylists/${list.id}`, { familyId: family.id })
  t.equal(shared.statusCode, 200)
  t.match(json(shared).groceryList, { familyId: family.id, isOwner: true })

  const seen = await getList(app, member, list)
  t.match(seen, { id: list.id, familyId: family.id, userId: owner.id, isOwner: false }, 'members see it')
  t.ok(json(await as(app, member, 'GET', '/api/grocerylists')).groceryLists.some((l: { id: string }) => l.id === list.id), 'and it is in their list')
  const renamed = await as(app, member, 'PUT', `/api/grocerylists/${list.id}`, { name: 'Renamed by member' })
  t.equal(renamed.statusCode, 200, 'members may rename')
  const added = await addItem(app, member, list, { name: 'bread' })
  const checked = await as(app, member, 'PATCH', `/api/grocerylists/${list.id}/items/${added.id}`, { checked: true })
  t.equal(checked.statusCode, 200, 'members edit items')
  t.match(await getList(app, owner, list), { name: 'Renamed by member', itemCount: 2, checkedCount: 1 }, 'the owner sees their changes')

  const reshare = await as(app, member, 'PUT', `/api/grocerylists/${list.id}`, { familyId: null })
  t.equal(reshare.statusCode, 403, 'members cannot unshare')
  t.equal(json(reshare).error, 'Only the list\'s owner can delete or share it')
  t.equal((await as(app, member, 'PUT', `/api/grocerylists/${list.id}`, { familyId: family.id, name: 'same family' })).statusCode, 200,
    'sending the current family is not re-sharing')
  t.equal((await as(app, member, 'DELETE', `/api/grocerylists/${list.id}`)).statusCode, 403, 'members cannot delete')
  t.equal((await as(app, owner, 'GET', `/api/grocerylists/${list.id}`)).statusCode, 200, 'still there')

  // Strangers: 404 on every route, and their list does not show it.
  const item = seen.items[0]
  const attempts = [
    ['GET', `/api/grocerylists/${list.id}`, undefined],
    ['PUT', `/api/grocerylists/${list.id}`, { name: 'Hijacked' }],
    ['PUT', `/api/grocerylists/${list.id}`, { familyId: null }],
    ['DELETE', `/api/grocerylists/${list.id}`, undefined],
    ['POST', `/api/grocerylists/${list.id}/items`, { name: 'x' }],
    ['PATCH', `/api/grocerylists/${list.id}/items/${item.id}`, { checked: true }],
    ['DELETE', `/api/grocerylists/${list.id}/items/${item.id}`, undefined],
    ['POST', `/api/grocerylists/${list.id}/uncheck-all`, undefined],
    ['POST', `/api/grocerylists/${list.id}/clear-checked`, undefined],
    ['GET', `/api/grocery-integrations/export/${list.id}?format=csv`, undefined]
  ] as const
  for (const [method, url, payload] of attempts) {
    const res = await as(app, stranger, method, url, payload)
    t.equal(res.statusCode, 404, `stranger: ${method} ${url}`)
    t.notMatch(res.body, /Family shop|Renamed by member|same family|milk|bread/, 'and nothing of the list leaks')
  }
  t.notOk(json(await as(app, stranger, 'GET', '/api/grocerylists')).groceryLists.some((l: { id: string }) => l.id === list.id))
  t.match(await getList(app, owner, list), { name: 'same family', familyId: family.id, itemCount: 2, checkedCount: 1 }, 'nothing changed')

  await t.test('leaving the family ends access', async t => {
    await leaveFamily(app, member, family)
    t.equal((await as(app, member, 'GET', `/api/grocerylists/${list.id}`)).statusCode, 404)
    t.equal((await as(app, member, 'POST', `/api/grocerylists/${list.id}/items`, { name: 'x' })).statusCode, 404)
  })

  await t.test('unsharing (familyId: null) ends access for members', async t => {
    const other = await registerUser(app)
    const family2 = await makeFamily(app, owner, [other])
    await as(app, owner, 'PUT', `/api/grocerylists/${list.id}`, { familyId: family2.id })
    t.equal((await as(app, other, 'GET', `/api/grocerylists/${list.id}`)).statusCode, 200)
    const unshared = await as(app, owner, 'PUT', `/api/grocerylists/${list.id}`, { familyId: null })
    t.match(json(unshared).groceryList, { familyId: null })
    t.equal((await as(app, other, 'GET', `/api/grocerylists/${list.id}`)).statusCode, 404)
  })

  await t.test('creating a list shared with a family at once', async t => {
    const other = await registerUser(app)
    const family3 = await makeFamily(app, owner, [other])
    const direct = await createList(app, owner, { name: 'Shared from the start', familyId: family3.id })
    t.equal(direct.familyId, family3.id)
    t.equal((await as(app, other, 'GET', `/api/grocerylists/${direct.id}`)).statusCode, 200)
    t.equal((await as(app, stranger, 'POST', '/api/grocerylists', { name: 'x', familyId: family3.id })).statusCode, 404,
      'only with a family you belong to')
    const deleted = await as(app, owner, 'DELETE', `/api/grocerylists/${direct.id}`)
    t.equal(deleted.statusCode, 200, 'the owner deletes a shared list')
    t.equal((await as(app, other, 'GET', `/api/grocerylists/${direct.id}`)).statusCode, 404, 'and it is gone for members too')
  })
})

t.test('the list cap per user is exact under concurrent creates', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  const member = await registerUser(app)
  // 195 lists through the API, then 10 at once: exactly 5 more fit.
  for (let i = 0; i < 195; i++) await createList(app, owner, { name: `List ${i}` })
  const results = await Promise.all(Array.from({ length: 10 }, (_, i) => as(app, owner, 'POST', '/api/grocerylists', { name: `Race ${i}` })))
  const codes = results.map(r => r.statusCode).sort()
  t.same(codes, [...Array(5).fill(201), ...Array(5).fill(403)], 'five created, five refused')
  const refused = results.find(r => r.statusCode === 403)!
  t.match(json(refused), { error: 'You have as many grocery lists as allowed', limit: 200, used: 200 })
  t.equal(json(await as(app, owner, 'GET', '/api/grocerylists')).pagination.total, 200)

  // Lists shared with you do not count against your cap.
  const family = await makeFamily(app, owner, [member])
  const first = json(await as(app, owner, 'GET', '/api/grocerylists?limit=1')).groceryLists[0]
  await as(app, owner, 'PUT', `/api/grocerylists/${first.id}`, { familyId: family.id })
  t.equal((await as(app, member, 'POST', '/api/grocerylists', { name: 'Mine' })).statusCode, 201)
})
