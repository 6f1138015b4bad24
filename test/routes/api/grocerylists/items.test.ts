import t from 'tap'
import { build, expectValidationError, json, registerUser } from '../../../helper.js'
import { addItem, createList, getList, groceryRequest as as, makeFamily } from '../../../helpers/grocery.js'

t.test('items: add, check, change, remove', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  const list = await createList(app, owner)

  const res = await as(app, owner, 'POST', `/api/grocerylists/${list.id}/items`, { name: ' Cherry tomatoes ', quantity: 250, unit: ' g ', note: ' ripe ', id: 'mine', checked: false })
  t.equal(res.statusCode, 201)
  const tomatoes = json(res).item
  t.match(tomatoes, { name: 'Cherry tomatoes', quantity: 250, unit: 'g', note: 'ripe', category: 'produce', checked: false, position: 0 },
    'trimmed, aisle guessed, server-owned fields ignored')
  t.not(tomatoes.id, 'mine')
  const salt = await addItem(app, owner, list, { name: 'salt', unit: '', note: '  ' })
  t.match(salt, { category: 'spices', quantity: null, unit: null, note: null, position: 1 }, 'blank unit and note are null')
  const soap = await addItem(app, owner, list, { name: 'Dish soap' })
  t.equal(soap.category, 'other', 'unknown things are other')
  const chosen = await addItem(app, owner, list, { name: 'Dish soap refill', category: 'pantry' })
  t.equal(chosen.category, 'pantry', 'an explicit category wins')

  const checked = await as(app, owner, 'PATCH', `/api/grocerylists/${list.id}/items/${tomatoes.id}`, { checked: true })
  t.equal(checked.statusCode, 200)
  t.match(json(checked).item, { id: tomatoes.id, checked: true, name: 'Cherry tomatoes', quantity: 250 }, 'only checked changed')
  const unchecked = json(await as(app, owner, 'PATCH', `/api/grocerylists/${list.id}/items/${tomatoes.id}`, { checked: false })).item
  t.equal(unchecked.checked, false, 'and unchecked')
  const changed = json(await as(app, owner, 'PATCH', `/api/grocerylists/${list.id}/items/${tomatoes.id}`,
    { name: 'Tomatoes', quantity: 1.5, unit: 'kg', note: null, category: 'produce', position: 7 })).item
  t.match(changed, { name: 'Tomatoes', quantity: 1.5, unit: 'kg', note: null, position: 7 })
  const cleared = json(await as(app, owner, 'PATCH', `/api/grocerylists/${list.id}/items/${tomatoes.id}`, { quantity: null, unit: null })).item
  t.match(cleared, { quantity: null, unit: null, name: 'Tomatoes' }, 'null clears')
  t.equal((await as(app, owner, 'PATCH', `/api/grocerylists/${list.id}/items/${tomatoes.id}`, {})).statusCode, 200, 'an empty change is fine')

  expectValidationError(t, await as(app, owner, 'PATCH', `/api/grocerylists/${list.id}/items/${tomatoes.id}`, { name: ' ' }), 'name')
  expectValidationError(t, await as(app, owner, 'PATCH', `/api/grocerylists/${list.id}/items/${tomatoes.id}`, { checked: 'yes' }), 'checked')
  expectValidationError(t, await as(app, owner, 'PATCH', `/api/grocerylists/${list.id}/items/${tomatoes.id}`, { position: -1 }), 'position')
  expectValidationError(t, await as(app, owner, 'POST', `/api/grocerylists/${list.id}/items`, {}), 'name')
  expectValidationError(t, await as(app, owner, 'POST', `/api/grocerylists/${list.id}/items`, { name: 'n'.repeat(201) }), 'name')
  expectValidationError(t, await as(app, owner, 'POST', `/api/grocerylists/${list.id}/items`, { name: 'a', unit: 'u'.repeat(31) }), 'unit')
  expectValidationError(t, await as(app, owner, 'POST', `/api/grocerylists/${list.id}/items`, { name: 'a', note: 'n'.repeat(501) }), 'note')
  expectValidationError(t, await as(app, owner, 'POST', `/api/grocerylists/${list.id}/items`, { name: 'a', quantity: 1e9 }), 'quantity')
  t.equal((await as(app, owner, 'POST', `/api/grocerylists/${list.id}/items`, { name: 'a\u0000b' })).statusCode, 400, 'NUL bytes: 400')

  const full = await getList(app, owner, list)
  t.same(full.items.map((i: { name: string }) => i.name), ['Tomatoes', 'Dish soap refill', 'salt', 'Dish soap'], 'aisle order (produce, pantry, spices, other)')
  t.match(full, { itemCount: 4, checkedCount: 0 })

  const removed = await as(app, owner, 'DELETE', `/api/grocerylists/${list.id}/items/${salt.id}`)
  t.equal(removed.statusCode, 200)
  t.same(json(removed), { message: 'Item removed' })
  t.equal((await as(app, owner, 'DELETE', `/api/grocerylists/${list.id}/items/${salt.id}`)).statusCode, 404, 'removing twice: 404')
  t.equal((await as(app, owner, 'PATCH', `/api/grocerylists/${list.id}/items/${salt.id}`, { checked: true })).statusCode, 404)
  t.equal((await as(app, owner, 'PATCH', `/api/grocerylists/${list.id}/items/${'x'.repeat(65)}`, { checked: true })).statusCode, 404, 'malformed item id: 404')

  // An item is reached only through its own list, even by the owner of both.
  const other = await createList(app, owner, { name: 'Other' })
  t.equal((await as(app, owner, 'PATCH', `/api/grocerylists/${other.id}/items/${soap.id}`, { checked: true })).statusCode, 404)
  t.equal((await as(app, owner, 'DELETE', `/api/grocerylists/${other.id}/items/${soap.id}`)).statusCode, 404)
  t.equal((await getList(app, owner, list)).itemCount, 3, 'the item is still in its list')
})

t.test('uncheck all and clear checked, as the owner and as a family member', async t => {
  const app = await build(t)
  const [owner, member, stranger] = await Promise.all([registerUser(app), registerUser(app), registerUser(app)])
  const family = await makeFamily(app, owner, [member])
  const list = await createList(app, owner, {
    familyId: family.id,
    items: [{ name: 'milk', checked: true }, { name: 'eggs', checked: true }, { name: 'bread' }]
  })

  const unchecked = await as(app, member, 'POST', `/api/grocerylists/${list.id}/uncheck-all`)
  t.equal(unchecked.statusCode, 200)
  t.match(json(unchecked).groceryList, { itemCount: 3, checkedCount: 0 })
  t.ok(json(unchecked).groceryList.items.every((i: { checked: boolean }) => !i.checked))

  for (const item of (await getList(app, owner, list)).items.filter((i: { name: string }) => i.name !== 'bread')) {
    await as(app, member, 'PATCH', `/api/grocerylists/${list.id}/items/${item.id}`, { checked: true })
  }
  const cleared = await as(app, owner, 'POST', `/api/grocerylists/${list.id}/clear-checked`)
  t.equal(cleared.statusCode, 200)
  t.equal(json(cleared).removed, 2)
  t.same(json(cleared).groceryList.items.map((i: { name: string }) => i.name), ['bread'], 'only the unchecked item is left')
  t.equal(json(await as(app, member, 'POST', `/api/grocerylists/${list.id}/clear-checked`)).removed, 0, 'nothing checked: nothing removed')

  t.equal((await as(app, stranger, 'POST', `/api/grocerylists/${list.id}/uncheck-all`)).statusCode, 404)
  t.equal((await as(app, stranger, 'POST', `/api/grocerylists/${list.id}/clear-checked`)).statusCode, 404)
  t.equal((await getList(app, owner, list)).itemCount, 1, 'strangers changed nothing')
})

t.test('concurrent adds: none is lost, positions stay distinct', async t => {
  const app = await build(t)
  const [owner, member] = await Promise.all([registerUser(app), registerUser(app)])
  const family = await makeFamily(app, owner, [member])
  const list = await createList(app, owner, { familyId: family.id })
  const results = await Promise.all(Array.from({ length: 30 }, (_, i) =>
    as(app, i % 2 === 0 ? owner : member, 'POST', `/api/grocerylists/${list.id}/items`, { name: `item ${i}` })))
  t.same(results.map(r => r.statusCode), Array(30).fill(201), 'every add answered 201')
  const items = (await getList(app, owner, list)).items
  t.equal(items.length, 30, 'and every item is there')
  t.same(new Set(items.map((i: { name: string }) => i.name)).size, 30)
  t.same(items.map((i: { position: number }) => i.position).sort((a: number, b: number) => a - b), Array.from({ length: 30 }, (_, i) => i),
    'positions 0..29, no two alike')
})

t.test('the item cap is exact under concurrent adds', async t => {
  const app = await build(t)
  const [owner, member] = await Promise.all([registerUser(app), registerUser(app)])
  const family = await makeFamily(app, owner, [member])
  const list = await createList(app, owner, { familyId: family.id, items: Array.from({ length: 495 }, (_, i) => ({ name: `item ${i}` })) })
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
    as(app, i % 2 === 0 ? owner : member, 'POST', `/api/grocerylists/${list.id}/items`, { name: `race ${i}` })))
  const codes = results.map(r => r.statusCode).sort()
  t.same(codes, [...Array(5).fill(201), ...Array(15).fill(403)], 'exactly five fit')
  t.match(json(results.find(r => r.statusCode === 403)!), { error: 'This grocery list has as many items as allowed', limit: 500, used: 500 })
  t.equal((await getList(app, owner, list)).itemCount, 500, 'the list holds exactly 500 items')
  const first = (await getList(app, owner, list)).items[0]
  await as(app, owner, 'DELETE', `/api/grocerylists/${list.id}/items/${first.id}`)
  t.equal((await as(app, member, 'POST', `/api/grocerylists/${list.id}/items`, { name: 'one more' })).statusCode, 201, 'room again after a removal')
})
