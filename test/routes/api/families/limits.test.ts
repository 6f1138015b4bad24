import t from 'tap'
import { FAMILY_LIMITS } from '../../../../schemas/families.js'
import { memberCap } from '../../../../plugins/app/services/families.js'
import { FALLBACK_PLANS, type Plan } from '../../../../plugins/app/services/plans.js'
import { bearer, build, json, registerUser, type TestUser } from '../../../helper.js'
import { createFamily, getFamily, join, setRole } from '../../../helpers/families.js'

const plan = (familyMembers?: number | null): Plan => ({ ...FALLBACK_PLANS[0], limits: { recipes: null, aiGenerations: null, imports: null, familyMembers } })

t.test('the member cap: the most generous owner\'s plan, never above the absolute bound', async t => {
  t.same(FALLBACK_PLANS.map(p => [p.id, p.limits.familyMembers]), [['free', 6], ['premium', 6], ['family', 12]], 'built-in plans')
  t.equal(memberCap([plan(6)]), 6)
  t.equal(memberCap([plan(6), plan(12)]), 12, 'several owners: the most generous plan')
  t.equal(memberCap([plan(6), plan(null)]), FAMILY_LIMITS.members, 'an unlimited plan: the absolute bound')
  t.equal(memberCap([plan(undefined)]), FAMILY_LIMITS.members, 'a stored plan without familyMembers: the absolute bound')
  t.equal(memberCap([plan(500)]), FAMILY_LIMITS.members, 'never above it')
  t.equal(memberCap([]), FAMILY_LIMITS.members)
})

t.test('joining a full family: exact under concurrent joins, from the owners\' plans', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  const joiners: TestUser[] = []
  for (let i = 0; i < 9; i++) joiners.push(await registerUser(app))
  const family = await createFamily(app, owner)

  // Free plan: 6 members. Eight join at once for the five free places.
  const results = await Promise.all(joiners.slice(0, 8).map(async user => await join(app, user, family.inviteCode)))
  t.same(results.map(r => r.statusCode).sort(), [201, 201, 201, 201, 201, 403, 403, 403], 'five get in')
  for (const refused of results.filter(r => r.statusCode === 403)) {
    t.same(json(refused), { error: 'This family has reached its member limit', limit: 6, used: 6 })
  }
  t.equal(json(await getFamily(app, owner, family)).family.memberCount, 6, 'exactly the cap')
  const outside = joiners.filter((_, i) => results[i]?.statusCode !== 201)
  t.equal(outside.length, 4)

  // No admin API for plans yet: the owner's plan is changed in the table.
  await app.db`update users set plan_id = 'family' where id = ${owner.id}`
  t.equal((await join(app, outside[0], family.inviteCode)).statusCode, 201, 'the family plan holds 12')
  await app.db`update users set plan_id = 'free' where id = ${owner.id}`
  const over = await join(app, outside[1], family.inviteCode)
  t.same(json(over), { error: 'This family has reached its member limit', limit: 6, used: 7 }, 'members above a lowered cap stay; nobody new joins')

  // A co-owner on the family plan raises the cap: the most generous owner counts.
  const insider = joiners.find(u => !outside.includes(u))!
  await app.db`update users set plan_id = 'family' where id = ${insider.id}`
  t.equal((await setRole(app, owner, family, insider, 'owner')).statusCode, 200)
  t.equal((await join(app, outside[1], family.inviteCode)).statusCode, 201, 'the co-owner\'s plan applies')
  t.equal(json(await getFamily(app, owner, family)).family.memberCount, 8)
  t.equal((await join(app, outside[1], family.inviteCode)).statusCode, 200, 'joining again is not counted')
})

t.test('families per user: at most 20, exact under concurrency', async t => {
  const app = await build(t)
  const [user, other] = await Promise.all([registerUser(app), registerUser(app)])
  const elsewhere = await createFamily(app, other, { name: 'Elsewhere' })
  const mine = []
  for (let i = 1; i < FAMILY_LIMITS.perUser; i++) mine.push(await createFamily(app, user, { name: `F${i}` }))

  // One place left: two creates and a join at once.
  const create = async () => await app.inject({ method: 'POST', url: '/api/families', headers: bearer(user), payload: { name: 'One more' } })
  const results = await Promise.all([create(), create(), join(app, user, elsewhere.inviteCode)])
  t.same(results.map(r => r.statusCode).filter(s => s !== 403).length, 1, 'exactly one gets in')
  t.same(results.map(r => r.statusCode).filter(s => s === 403).length, 2)
  for (const refused of results.filter(r => r.statusCode === 403)) {
    t.same(json(refused), { error: 'You belong to as many families as allowed', limit: 20, used: 20 })
  }
  t.equal(json(await app.inject({ url: '/api/families?limit=1', headers: bearer(user) })).pagination.total, 20)
  t.equal((await join(app, user, mine[0].inviteCode)).statusCode, 200, 'a family you are in answers 200 at the cap')

  const left = await app.inject({ method: 'POST', url: `/api/families/${mine[0].id}/leave`, headers: bearer(user) })
  t.equal(json(left).familyDeleted, true)
  t.equal((await create()).statusCode, 201, 'leaving one frees a place')
  t.equal(json(await app.inject({ url: '/api/families?limit=1', headers: bearer(user) })).pagination.total, 20, 'back at the cap')
})

t.test('invite codes: a code already taken is replaced by a fresh one (create and regenerate)', async t => {
  const app = await build(t)
  const [user, other] = await Promise.all([registerUser(app), registerUser(app)])
  const taken = await createFamily(app, other)
  // The service as the app builds it, but with a random source that first repeats a code some family holds.
  const crypto = await import('node:crypto')
  const queue: Buffer[] = []
  const mocks = { 'node:crypto': { ...crypto, randomBytes: (n: number) => queue.shift() ?? crypto.randomBytes(n) } }
  type FamiliesModule = typeof import('../../../../plugins/app/services/families.js')
  const { createFamilyService } = await t.mockImport<FamiliesModule>('../../../../plugins/app/services/families.js', mocks)
  const service = createFamilyService(app)

  queue.push(Buffer.from(taken.inviteCode, 'hex'), Buffer.from(taken.inviteCode, 'hex'))
  const created = await service.create(user.id, { name: 'Clash' })
  t.equal(queue.length, 0, 'the taken code was tried twice')
  t.match(created.inviteCode, /^[0-9a-f]{8}$/)
  t.not(created.inviteCode, taken.inviteCode, 'then a fresh one was used')
  t.equal(json(await getFamily(app, user, created)).family.memberCount, 1, 'one family, one owner: the failed attempts left nothing')
  t.equal(json(await app.inject({ url: '/api/families', headers: bearer(user) })).pagination.total, 1)

  queue.push(Buffer.from(taken.inviteCode, 'hex'))
  const regenerated = await service.regenerateInviteCode(user.id, created.id)
  t.equal(queue.length, 0)
  t.not(regenerated.inviteCode, taken.inviteCode)
  t.not(regenerated.inviteCode, created.inviteCode)
  t.equal(json(await app.inject(`/api/families/invite/${taken.inviteCode}`)).family.memberCount, 1, 'the other family keeps its code')
})
