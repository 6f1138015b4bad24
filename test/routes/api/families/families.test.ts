import t from 'tap'
import { bearer, build, expectValidationError, json, registerUser } from '../../../helper.js'
import { createFamily, familyWith, getFamily } from '../../../helpers/families.js'

const HEX8 = /^[0-9a-f]{8}$/

t.test('families: create, read, list, update, delete, for owners, admins, members and strangers', async t => {
  const app = await build(t)
  const [owner, admin, member, stranger] = await Promise.all([registerUser(app), registerUser(app), registerUser(app), registerUser(app)])
  const create = async (payload: Record<string, unknown>) => await app.inject({ method: 'POST', url: '/api/families', headers: bearer(owner), payload })

  const created = await create({ name: '  The Smiths ', description: 'Sunday roasts' })
  t.equal(created.statusCode, 201)
  const family = json(created).family
  t.match(family, { name: 'The Smiths', description: 'Sunday roasts', role: 'owner', memberCount: 1 })
  t.match(family.inviteCode, HEX8, 'invite code: 8 lowercase hex')
  t.match(family.id, /^[a-z0-9]{24,}$/, 'cuid2 id')
  t.same(family.members.map((m: { id: string, role: string }) => [m.id, m.role]), [[owner.id, 'owner']], 'the creator is the owner')
  t.match(family.members[0], { username: owner.username, firstName: null, lastName: null, avatarUrl: null })
  t.ok(!Number.isNaN(Date.parse(family.members[0].joinedAt)) && !Number.isNaN(Date.parse(family.createdAt)), 'ISO timestamps')
  t.notOk(JSON.stringify(family).includes(owner.email), 'no email addresses')

  expectValidationError(t, await create({ name: 'x'.repeat(101) }), 'name')
  expectValidationError(t, await create({ name: '   ' }), 'name')
  expectValidationError(t, await create({}), 'name')
  expectValidationError(t, await create({ name: 'Ok', description: 'x'.repeat(2001) }), 'description')
  const longest = await create({ name: 'x'.repeat(100), description: 'y'.repeat(2000) })
  t.equal(longest.statusCode, 201, '100-character name and 2,000-character description are fine')
  t.equal(json(await create({ name: 'Salt & pepper <3', description: null })).family.name, 'Salt & pepper <3', 'plain text comes back as sent')

  // Everyone else joins through the API (an admin, a member); the stranger stays out.
  const smiths = await familyWith(app, owner, admin, [member])
  const url = `/api/families/${smiths.id}`

  await t.test('reading: members see it, the invite code only owners and admins; strangers get 404', async t => {
    const asOwner = json(await getFamily(app, owner, smiths)).family
    t.equal(asOwner.memberCount, 3)
    t.same(asOwner.members.map((m: { id: string, role: string }) => [m.id, m.role]),
      [[owner.id, 'owner'], [admin.id, 'admin'], [member.id, 'member']], 'owners, admins, members')
    t.match(asOwner.inviteCode, HEX8)
    const asAdmin = json(await getFamily(app, admin, smiths)).family
    t.match(asAdmin, { role: 'admin', inviteCode: asOwner.inviteCode, memberCount: 3 })
    const asMember = json(await getFamily(app, member, smiths)).family
    t.match(asMember, { role: 'member', inviteCode: null, memberCount: 3 }, 'plain members do not see the code')
    t.equal(asMember.members.length, 3)

    const hidden = await getFamily(app, stranger, smiths)
    t.equal(hidden.statusCode, 404)
    t.same(json(hidden), { error: 'Family not found' })
    t.equal((await app.inject({ url: '/api/families/not-a-real-id', headers: bearer(owner) })).statusCode, 404, 'unknown id')
    t.equal((await app.inject({ url: `/api/families/${'x'.repeat(200)}`, headers: bearer(owner) })).statusCode, 404, 'malformed id')

    const listed = json(await app.inject({ url: '/api/families', headers: bearer(member) }))
    t.same(listed.families.map((f: { id: string }) => f.id), [smiths.id])
    t.match(listed.families[0], { role: 'member', inviteCode: null, memberCount: 3, name: 'The Family' })
    t.notOk('members' in listed.families[0], 'lists carry summaries')
    t.same(json(await app.inject({ url: '/api/families', headers: bearer(stranger) })).families, [], 'not in a stranger\'s list')
    t.equal(json(await app.inject({ url: '/api/families', headers: bearer(admin) })).families[0].inviteCode, asOwner.inviteCode)
  })

  await t.test('updating: owners only', async t => {
    const put = async (user: typeof owner, payload: Record<string, unknown>) => await app.inject({ method: 'PUT', url, headers: bearer(user), payload })
    t.equal((await put(stranger, { name: 'Mine now' })).statusCode, 404, 'stranger')
    const byMember = await put(member, { name: 'Hijacked' })
    t.equal(byMember.statusCode, 403, 'member')
    t.same(json(byMember), { error: 'Only an owner of the family can do this' })
    t.equal((await put(admin, { name: 'Hijacked' })).statusCode, 403, 'admin')
    t.equal(json(await getFamily(app, owner, smiths)).family.name, 'The Family', 'nothing changed')

    const renamed = await put(owner, { name: ' Smith household ', description: 'Weeknights' })
    t.equal(renamed.statusCode, 200)
    t.match(json(renamed).family, { name: 'Smith household', description: 'Weeknights', memberCount: 3 })
    t.equal(json(await put(owner, { description: null })).family.description, null, 'null clears the description')
    t.equal(json(await put(owner, {})).family.name, 'Smith household', 'fields left out stay')
    expectValidationError(t, await put(owner, { name: ' ' }), 'name')
    expectValidationError(t, await put(owner, { name: 'x'.repeat(101) }), 'name')
    t.equal(json(await getFamily(app, member, smiths)).family.name, 'Smith household', 'members see the change')
  })

  await t.test('sign-in is required everywhere but the invite preview', async t => {
    const routes = [['GET', '/api/families'], ['POST', '/api/families'], ['GET', url], ['PUT', url], ['DELETE', url],
      ['POST', '/api/families/join'], ['POST', `${url}/leave`], ['POST', `${url}/invite-code`],
      ['PUT', `${url}/members/${member.id}`], ['DELETE', `${url}/members/${member.id}`]] as const
    for (const [method, path] of routes) {
      const res = await app.inject({ method, url: path, payload: method === 'GET' || method === 'DELETE' ? undefined : {} })
      t.equal(res.statusCode, 401, `${method} ${path}`)
    }
  })

  await t.test('deleting: owners only; everyone loses it', async t => {
    const del = async (user: typeof owner) => await app.inject({ method: 'DELETE', url, headers: bearer(user) })
    t.equal((await del(stranger)).statusCode, 404, 'stranger')
    t.equal((await del(member)).statusCode, 403, 'member')
    t.equal((await del(admin)).statusCode, 403, 'admin')
    const { inviteCode } = json(await getFamily(app, owner, smiths)).family
    const deleted = await del(owner)
    t.equal(deleted.statusCode, 200)
    t.same(json(deleted), { message: 'Family deleted' })
    for (const user of [owner, admin, member]) t.equal((await getFamily(app, user, smiths)).statusCode, 404, `gone for ${user.username}`)
    t.same(json(await app.inject({ url: '/api/families', headers: bearer(member) })).families, [], 'and from the lists')
    t.equal((await app.inject(`/api/families/invite/${inviteCode as string}`)).statusCode, 404, 'its code opens nothing')
    t.equal((await del(owner)).statusCode, 404, 'deleting twice')
  })
})

t.test('listing: paged, in the order you joined', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  for (const name of ['A', 'B', 'C']) await createFamily(app, user, { name })
  const page1 = json(await app.inject({ url: '/api/families?limit=2', headers: bearer(user) }))
  t.same(page1.families.map((f: { name: string }) => f.name), ['A', 'B'])
  t.match(page1.pagination, { page: 1, limit: 2, total: 3, totalPages: 2, hasNext: true, hasPrev: false })
  const page2 = json(await app.inject({ url: '/api/families?page=2&limit=2', headers: bearer(user) }))
  t.same(page2.families.map((f: { name: string }) => f.name), ['C'])
  t.match(page2.pagination, { page: 2, total: 3, hasNext: false, hasPrev: true })
  expectValidationError(t, await app.inject({ url: '/api/families?limit=51', headers: bearer(user) }), 'limit')
  expectValidationError(t, await app.inject({ url: '/api/families?page=0', headers: bearer(user) }), 'page')
})
