import t from 'tap'
import { bearer, build, expectValidationError, json, notificationsOf, registerUser, type TestUser } from '../../../helper.js'
import { createFamily, familyWith, getFamily, join, joinFamily, setRole } from '../../../helpers/families.js'

const rolesOf = (family: { members: Array<{ id: string, role: string }> }) => Object.fromEntries(family.members.map(m => [m.id, m.role]))

t.test('invite preview: public, no member identities; malformed 400, unknown 404', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  const family = await createFamily(app, owner, { name: 'Garcías', description: 'Paella on Sundays' })

  const preview = await app.inject(`/api/families/invite/${family.inviteCode}`)
  t.equal(preview.statusCode, 200, 'no sign-in needed')
  t.same(json(preview), { family: { name: 'Garcías', description: 'Paella on Sundays', memberCount: 1 } }, 'name, description, member count only')
  t.notOk(preview.body.includes(owner.id) || preview.body.includes(owner.username), 'no member identities')
  t.same(json(await app.inject({ url: `/api/families/invite/${family.inviteCode}`, headers: bearer(owner) })), json(preview), 'the same when signed in')
  t.equal((await app.inject(`/api/families/invite/${family.inviteCode.toUpperCase()}`)).statusCode, 200, 'case does not matter')

  for (const bad of ['abc', 'abcdefgh', '123456789', 'zzzzzzzz', '12345678%20']) {
    const res = await app.inject(`/api/families/invite/${bad}`)
    t.equal(res.statusCode, 400, `malformed: ${bad}`)
    t.same(json(res), { error: 'Validation error', details: ['inviteCode: must be 8 hexadecimal characters'] })
  }
  const unknown = family.inviteCode === '00000000' ? '00000001' : '00000000'
  const missing = await app.inject(`/api/families/invite/${unknown}`)
  t.equal(missing.statusCode, 404, 'unknown code')
  t.same(json(missing), { error: 'Invite code not found' })
})

t.test('joining: 201, then 200 with no second row, even all at once; members are told', async t => {
  const app = await build(t)
  const [owner, admin, joiner, late] = await Promise.all([registerUser(app), registerUser(app), registerUser(app), registerUser(app)])
  const family = await familyWith(app, owner, admin, [])

  expectValidationError(t, await join(app, joiner, 'nothex!!'), 'inviteCode')
  expectValidationError(t, await join(app, joiner, family.inviteCode + '0'), 'inviteCode')
  expectValidationError(t, await app.inject({ method: 'POST', url: '/api/families/join', headers: bearer(joiner), payload: {} }), 'inviteCode')
  const unknown = family.inviteCode === 'ffffffff' ? 'fffffffe' : 'ffffffff'
  t.equal((await join(app, joiner, unknown)).statusCode, 404, 'unknown code')

  // The same join five times at once: one membership, one 201.
  const results = await Promise.all(Array.from({ length: 5 }, async () => await join(app, joiner, family.inviteCode.toUpperCase())))
  t.same(results.map(r => r.statusCode).sort(), [200, 200, 200, 200, 201], 'one join, four answers that you are in')
  for (const res of results) t.match(json(res).family, { id: family.id, role: 'member', memberCount: 3, inviteCode: null })
  const [{ n }] = await app.db<Array<{ n: number }>>`select count(*)::int as n from family_members where family_id = ${family.id} and user_id = ${joiner.id}`
  t.equal(n, 1, 'one row')
  t.equal(json(await getFamily(app, owner, family)).family.memberCount, 3)

  const joinsBy = async (user: TestUser, actor: TestUser) => (await notificationsOf(app, user, 'family_invite')).filter(n => n.actor?.id === actor.id)
  t.equal((await notificationsOf(app, owner, 'family_invite')).length, 2, 'the owner was told of the admin\'s join and this one')
  for (const user of [owner, admin]) {
    const notes = await joinsBy(user, joiner)
    t.equal(notes.length, 1, `${user.username} is told once`)
    t.match(notes[0], { message: `${joiner.username} joined your family "The Family"`, actor: { id: joiner.id }, data: { familyId: family.id, event: 'member_joined' } })
  }
  t.same(await notificationsOf(app, joiner, 'family_invite'), [], 'not the one who joined')

  // Leaving and joining again within the hour does not notify again; a new member is told about later joins.
  const left = await app.inject({ method: 'POST', url: `/api/families/${family.id}/leave`, headers: bearer(joiner) })
  t.same(json(left), { message: 'You left the family', familyDeleted: false })
  t.equal((await join(app, joiner, family.inviteCode)).statusCode, 201, 'joins again')
  t.equal((await joinsBy(owner, joiner)).length, 1, 'no second notification within the hour')
  await joinFamily(app, late, family)
  t.equal((await joinsBy(joiner, late)).length, 1, 'members who joined earlier are told')
})

t.test('invite codes: owners and admins replace them; the old one stops working', async t => {
  const app = await build(t)
  const [owner, admin, member, stranger, newcomer] = await Promise.all([registerUser(app), registerUser(app), registerUser(app), registerUser(app), registerUser(app)])
  const family = await familyWith(app, owner, admin, [member])
  const regenerate = async (user: TestUser) => await app.inject({ method: 'POST', url: `/api/families/${family.id}/invite-code`, headers: bearer(user) })

  t.equal((await regenerate(stranger)).statusCode, 404, 'stranger')
  const byMember = await regenerate(member)
  t.equal(byMember.statusCode, 403, 'member')
  t.same(json(byMember), { error: 'Only owners and admins of the family can do this' })

  const byOwner = await regenerate(owner)
  t.equal(byOwner.statusCode, 200)
  const fresh = json(byOwner).family.inviteCode
  t.match(fresh, /^[0-9a-f]{8}$/)
  t.not(fresh, family.inviteCode, 'a new code')
  t.equal((await app.inject(`/api/families/invite/${family.inviteCode}`)).statusCode, 404, 'the old code previews nothing')
  t.equal((await join(app, newcomer, family.inviteCode)).statusCode, 404, 'and lets nobody in')

  const byAdmin = await regenerate(admin)
  t.equal(byAdmin.statusCode, 200, 'admins may too')
  const latest = json(byAdmin).family.inviteCode
  t.equal(json(await getFamily(app, owner, family)).family.inviteCode, latest)

  // Ten at once: each answers its own code, all different, and the family ends with one of them.
  const many = await Promise.all(Array.from({ length: 10 }, async () => await regenerate(owner)))
  t.same([...new Set(many.map(r => r.statusCode))], [200])
  const codes = many.map(r => json(r).family.inviteCode as string)
  t.equal(new Set([latest, ...codes]).size, 11, 'distinct codes')
  const final = json(await getFamily(app, admin, family)).family.inviteCode
  t.ok(codes.includes(final), 'the family holds one of them')
  t.equal((await join(app, newcomer, final)).statusCode, 201, 'the current code works')
})

t.test('leaving: the last owner hands over first; the last member deletes the family', async t => {
  const app = await build(t)
  const [owner, admin, member, stranger] = await Promise.all([registerUser(app), registerUser(app), registerUser(app), registerUser(app)])
  const family = await familyWith(app, owner, admin, [member])
  const leave = async (user: TestUser) => await app.inject({ method: 'POST', url: `/api/families/${family.id}/leave`, headers: bearer(user) })

  t.equal((await leave(stranger)).statusCode, 404, 'not a member')
  const blocked = await leave(owner)
  t.equal(blocked.statusCode, 409, 'the last owner cannot leave while others remain')
  t.same(json(blocked), { error: 'You are the last owner of this family: make another member an owner before leaving' })

  t.same(json(await leave(member)), { message: 'You left the family', familyDeleted: false })
  t.equal((await getFamily(app, member, family)).statusCode, 404, 'a former member sees nothing')
  t.equal(json(await getFamily(app, owner, family)).family.memberCount, 2)

  t.equal((await setRole(app, owner, family, admin, 'owner')).statusCode, 200, 'hand over')
  t.same(json(await leave(owner)), { message: 'You left the family', familyDeleted: false }, 'then leave')
  t.same(rolesOf(json(await getFamily(app, admin, family)).family), { [admin.id]: 'owner' })

  const last = await leave(admin)
  t.same(json(last), { message: 'You left the family; it had no other members and was deleted', familyDeleted: true })
  t.equal((await app.inject(`/api/families/invite/${family.inviteCode}`)).statusCode, 404, 'the family is gone')
})

t.test('leaving at the same time stays exact', async t => {
  const app = await build(t)
  const [a, b, c] = await Promise.all([registerUser(app), registerUser(app), registerUser(app)])

  // Two owners and a member: both owners leave at once; one must stay.
  const withMember = await familyWith(app, a, b, [c])
  await setRole(app, a, withMember, b, 'owner')
  const both = await Promise.all([a, b].map(async u => await app.inject({ method: 'POST', url: `/api/families/${withMember.id}/leave`, headers: bearer(u) })))
  t.same(both.map(r => r.statusCode).sort(), [200, 409], 'one leaves, the other is the last owner')
  const remaining = json(await getFamily(app, c, withMember)).family
  t.equal(remaining.memberCount, 2)
  t.same(Object.values(rolesOf(remaining)).sort(), ['member', 'owner'], 'an owner remains')

  // The last two members leave at once: no family is left without members.
  const pair = await createFamily(app, a)
  await joinFamily(app, b, pair)
  await setRole(app, a, pair, b, 'owner')
  const results = await Promise.all([a, b].map(async u => await app.inject({ method: 'POST', url: `/api/families/${pair.id}/leave`, headers: bearer(u) })))
  t.same(results.map(r => r.statusCode), [200, 200])
  t.same(results.map(r => json(r).familyDeleted).sort(), [false, true], 'the second to leave deletes it')
  t.equal((await app.inject(`/api/families/invite/${pair.inviteCode}`)).statusCode, 404)
})

t.test('removing members: owners anyone else, admins plain members only', async t => {
  const app = await build(t)
  const [owner, admin, admin2, member, member2, stranger] = await Promise.all(Array.from({ length: 6 }, async () => await registerUser(app)))
  const family = await familyWith(app, owner, admin, [admin2, member, member2])
  await setRole(app, owner, family, admin2, 'admin')
  const remove = async (by: TestUser, who: { id: string }) => await app.inject({ method: 'DELETE', url: `/api/families/${family.id}/members/${who.id}`, headers: bearer(by) })

  t.equal((await remove(stranger, member)).statusCode, 404, 'stranger')
  t.equal((await remove(member, member2)).statusCode, 403, 'member')
  const adminOnOwner = await remove(admin, owner)
  t.equal(adminOnOwner.statusCode, 403, 'admin removing an owner')
  t.same(json(adminOnOwner), { error: 'Admins can remove members only, not owners or other admins' })
  t.equal((await remove(admin, admin2)).statusCode, 403, 'admin removing an admin')
  const self = await remove(admin, admin)
  t.equal(self.statusCode, 400, 'removing yourself is leaving')
  t.match(json(self).error, /leave/)
  t.equal((await remove(owner, owner)).statusCode, 400, 'owners too')
  t.equal((await remove(owner, stranger)).statusCode, 404, 'not in the family')
  t.equal((await remove(owner, { id: 'x'.repeat(100) })).statusCode, 404, 'malformed user id')
  t.same(rolesOf(json(await getFamily(app, owner, family)).family),
    { [owner.id]: 'owner', [admin.id]: 'admin', [admin2.id]: 'admin', [member.id]: 'member', [member2.id]: 'member' }, 'nobody removed yet')

  const byAdmin = await remove(admin, member)
  t.equal(byAdmin.statusCode, 200, 'admin removes a member')
  t.same(json(byAdmin), { message: 'Member removed' })
  t.equal((await getFamily(app, member, family)).statusCode, 404, 'the removed member no longer sees it')
  t.equal((await remove(admin, member)).statusCode, 404, 'removing twice')
  t.equal((await remove(owner, admin2)).statusCode, 200, 'owner removes an admin')
  t.same(Object.keys(rolesOf(json(await getFamily(app, owner, family)).family)).sort(), [owner.id, admin.id, member2.id].sort())
})

t.test('roles: owners change them; promoting to owner is the hand-over', async t => {
  const app = await build(t)
  const [owner, admin, member, stranger] = await Promise.all(Array.from({ length: 4 }, async () => await registerUser(app)))
  const family = await familyWith(app, owner, admin, [member])

  t.equal((await setRole(app, stranger, family, member, 'admin')).statusCode, 404, 'stranger')
  t.equal((await setRole(app, member, family, member, 'owner')).statusCode, 403, 'member')
  t.equal((await setRole(app, admin, family, member, 'admin')).statusCode, 403, 'admin')
  t.equal((await setRole(app, owner, family, stranger, 'admin')).statusCode, 404, 'not in the family')
  expectValidationError(t, await setRole(app, owner, family, member, 'king'), 'role')
  const stepDown = await setRole(app, owner, family, owner, 'admin')
  t.equal(stepDown.statusCode, 409, 'the last owner cannot step down')
  t.match(json(stepDown).error, /last owner/)
  t.same(rolesOf(json(await getFamily(app, owner, family)).family), { [owner.id]: 'owner', [admin.id]: 'admin', [member.id]: 'member' }, 'unchanged')

  const promoted = await setRole(app, owner, family, member, 'admin')
  t.equal(promoted.statusCode, 200)
  t.equal(rolesOf(json(promoted).family)[member.id], 'admin')
  t.equal(json(await getFamily(app, member, family)).family.inviteCode, family.inviteCode, 'an admin now sees the code')
  t.equal((await setRole(app, owner, family, member, 'admin')).statusCode, 200, 'setting the same role again')

  t.equal((await setRole(app, owner, family, admin, 'owner')).statusCode, 200, 'a second owner')
  const handedOver = await setRole(app, owner, family, owner, 'member')
  t.equal(handedOver.statusCode, 200, 'with another owner, the first may step down')
  t.same(rolesOf(json(handedOver).family), { [owner.id]: 'member', [admin.id]: 'owner', [member.id]: 'admin' })
  t.equal(json(handedOver).family.inviteCode, null, 'and no longer sees the code')
  t.equal((await setRole(app, owner, family, admin, 'member')).statusCode, 403, 'a former owner has no say')
  t.equal((await setRole(app, admin, family, owner, 'owner')).statusCode, 200, 'the new owner changes roles')
})
