// Support tickets: anonymous and signed-in senders, optional auth that never refuses, limits, duplicates (sequential
// and concurrent), the per-address rate limit, and reading back your own tickets only.
import t from 'tap'
import { bearer, build, expectValidationError, json, PUBLIC_IP, registerUser } from '../../../helper.js'

const ticket = { subject: 'Cannot save a recipe', message: 'The save button does nothing & the page says <nothing>.' }

t.test('an anonymous ticket needs an address and is stored with it, the user agent and the page', async t => {
  const app = await build(t)
  expectValidationError(t, await app.inject({ method: 'POST', url: '/api/support', payload: ticket }), 'email')

  const res = await app.inject({
    method: 'POST',
    url: '/api/support',
    headers: { 'user-agent': `Browser/1.0 ${'x'.repeat(600)}` },
    payload: { ...ticket, email: 'Visitor@Example.com', name: 'Visitor', category: 'bug', pageUrl: 'https://recipes.example/recipes/abc?x=1&y=2' }
  })
  t.equal(res.statusCode, 201)
  const body = json(res)
  t.equal(body.success, true)
  t.type(body.ticketId, 'string')
  const [row] = await app.db`select user_id, email, name, category, subject, message, page_url, user_agent, status from support_tickets where id = ${body.ticketId}`
  t.match(row, { userId: null, email: 'visitor@example.com', name: 'Visitor', category: 'bug', ...ticket, pageUrl: 'https://recipes.example/recipes/abc?x=1&y=2', status: 'open' })
  t.equal(row.userAgent.length, 500, 'the user agent is cut to 500 characters')
  t.ok(row.userAgent.startsWith('Browser/1.0 '))

  const plain = await app.inject({ method: 'POST', url: '/api/support', payload: { subject: 'Hi', message: 'Question', email: 'q@example.com' } })
  t.equal((await app.db`select category from support_tickets where id = ${json(plain).ticketId}`)[0].category, 'other', 'category defaults to other')
})

t.test('a signed-in ticket is kept with the account and its address; a bad token continues anonymously', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const res = await app.inject({ method: 'POST', url: '/api/support', headers: bearer(ann), payload: { ...ticket, email: 'elsewhere@example.com' } })
  t.equal(res.statusCode, 201)
  const [row] = await app.db`select user_id, email from support_tickets where id = ${json(res).ticketId}`
  t.same(row, { userId: ann.id, email: ann.email }, 'the account\'s address, not the body\'s')

  const garbled = await app.inject({ method: 'POST', url: '/api/support', headers: { authorization: 'Bearer garbage.token.here' }, payload: { ...ticket, email: 'x@example.com' } })
  t.equal(garbled.statusCode, 201, 'a garbled token is not a 401')
  t.equal((await app.db`select user_id from support_tickets where id = ${json(garbled).ticketId}`)[0].userId, null, 'stored as anonymous')
  const noEmail = await app.inject({ method: 'POST', url: '/api/support', headers: { authorization: `Bearer ${ann.token}broken` }, payload: ticket })
  expectValidationError(t, noEmail, 'email')
})

t.test('validation: size bounds, blank text, category and page URL', async t => {
  const app = await build(t)
  const send = async (fields: Record<string, unknown>) => await app.inject({ method: 'POST', url: '/api/support', payload: { ...ticket, email: 'v@example.com', ...fields } })
  expectValidationError(t, await send({ message: 'm'.repeat(10_001) }), 'message')
  t.equal((await send({ message: 'm'.repeat(10_000) })).statusCode, 201, 'a 10,000-character message is accepted')
  expectValidationError(t, await send({ subject: 's'.repeat(201) }), 'subject')
  expectValidationError(t, await send({ subject: '' }), 'subject')
  expectValidationError(t, await send({ subject: '   ', message: 'other' }), 'subject')
  expectValidationError(t, await send({ message: '  \n ' }), 'message')
  expectValidationError(t, await send({ email: 'nope' }), 'email')
  expectValidationError(t, await send({ name: 'n'.repeat(201) }), 'name')
  expectValidationError(t, await send({ category: 'complaint' }), 'category')
  expectValidationError(t, await send({ pageUrl: 'javascript:alert(1)' }), 'pageUrl')
  expectValidationError(t, await send({ pageUrl: `https://example.com/${'p'.repeat(2048)}` }), 'pageUrl')
  // One database per test file: count this test's address only.
  t.equal((await app.db`select count(*)::int as n from support_tickets where email = 'v@example.com'`)[0].n, 1, 'only the valid ticket is stored')
})

t.test('the same ticket again, or many at once, is stored once', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const first = await app.inject({ method: 'POST', url: '/api/support', headers: bearer(ann), payload: ticket })
  t.equal(first.statusCode, 201)
  const again = await app.inject({ method: 'POST', url: '/api/support', headers: bearer(ann), payload: { ...ticket, subject: ` ${ticket.subject} ` } })
  t.equal(again.statusCode, 200)
  t.same(json(again), { success: true, ticketId: json(first).ticketId })
  t.equal((await app.inject({ method: 'POST', url: '/api/support', headers: bearer(ann), payload: { ...ticket, message: 'Something else' } })).statusCode, 201, 'another message is another ticket')

  const concurrent = await Promise.all(Array.from({ length: 8 }, async () =>
    await app.inject({ method: 'POST', url: '/api/support', payload: { ...ticket, email: 'race@example.com' } })))
  t.same(concurrent.map(r => r.statusCode).sort(), [200, 200, 200, 200, 200, 200, 200, 201])
  t.equal(new Set(concurrent.map(r => json(r).ticketId)).size, 1, 'one id for all')
  t.equal((await app.db`select count(*)::int as n from support_tickets where email = 'race@example.com'`)[0].n, 1, 'one row')
})

t.test('at most 10 tickets an hour per client address', async t => {
  const app = await build(t)
  const send = async (i: number) => await app.inject({ method: 'POST', url: '/api/support', remoteAddress: PUBLIC_IP, payload: { ...ticket, message: `Problem ${i}`, email: 'r@example.com' } })
  for (let i = 0; i < 10; i++) t.equal((await send(i)).statusCode, 201, `ticket ${i + 1}`)
  const limited = await send(10)
  t.equal(limited.statusCode, 429)
  t.match(json(limited), { error: 'Too many requests', limit: 'router' })
  t.equal(limited.headers['x-ratelimit-limit'], '10')
  t.ok(Number(limited.headers['retry-after']) > 0, 'with Retry-After')
  t.equal((await app.db`select count(*)::int as n from support_tickets where email = 'r@example.com'`)[0].n, 10, 'refused tickets are not stored')
})

t.test('senders read back their own tickets only', async t => {
  const app = await build(t)
  const [ann, bob] = await Promise.all([registerUser(app), registerUser(app)])
  const ids: string[] = []
  for (let i = 0; i < 3; i++) {
    ids.push(json(await app.inject({ method: 'POST', url: '/api/support', headers: bearer(ann), payload: { subject: `Issue ${i}`, message: 'Details', category: 'feature' } })).ticketId)
  }
  const bobs = json(await app.inject({ method: 'POST', url: '/api/support', headers: bearer(bob), payload: ticket })).ticketId
  const anonymous = json(await app.inject({ method: 'POST', url: '/api/support', payload: { ...ticket, email: ann.email } })).ticketId

  const page = json(await app.inject({ url: '/api/support/tickets?limit=2', headers: bearer(ann) }))
  t.same(page.tickets.map((x: { id: string }) => x.id), [ids[2], ids[1]], 'newest first, paged')
  t.match(page.pagination, { page: 1, limit: 2, total: 3, totalPages: 2, hasNext: true })
  t.match(page.tickets[0], { subject: 'Issue 2', message: 'Details', category: 'feature', status: 'open', email: ann.email, pageUrl: null })
  const second = json(await app.inject({ url: '/api/support/tickets?page=2&limit=2', headers: bearer(ann) }))
  t.same(second.tickets.map((x: { id: string }) => x.id), [ids[0]])

  const one = await app.inject({ url: `/api/support/tickets/${ids[0]}`, headers: bearer(ann) })
  t.equal(one.statusCode, 200)
  t.equal(json(one).ticket.id, ids[0])
  const other = await app.inject({ url: `/api/support/tickets/${bobs}`, headers: bearer(ann) })
  t.equal(other.statusCode, 404, 'another user\'s ticket is 404')
  t.same(json(other), { error: 'Support ticket not found' })
  t.equal((await app.inject({ url: `/api/support/tickets/${anonymous}`, headers: bearer(ann) })).statusCode, 404, 'so is an anonymous one with your address')
  t.equal((await app.inject({ url: '/api/support/tickets/not-an-id', headers: bearer(ann) })).statusCode, 404, 'and an unknown id')
  t.equal((await app.inject({ url: '/api/support/tickets' })).statusCode, 401, 'listing needs sign-in')
  t.equal((await app.inject({ url: `/api/support/tickets/${ids[0]}`, headers: { authorization: 'Bearer garbage' } })).statusCode, 401)
})
