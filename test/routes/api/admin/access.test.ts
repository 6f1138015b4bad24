// Who reaches the admin API: every admin route refuses no token and user tokens (only the exact sign-in route is
// public); path tricks never reach data; every admin request lands in the audit log with its secrets redacted.
import { generate } from 'otplib'
import t from 'tap'
import { adminBearer, bearer, build, createAdmin, eventually, json, registerUser } from '../../../helper.js'

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

t.test('every admin route but POST /api/admin/auth/login answers 401 without a token and with a user token', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const paths = (app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths
  const routes = Object.entries(paths)
    .filter(([path]) => path.startsWith('/api/admin/') || path === '/api/analytics')
    .flatMap(([path, ops]) => METHODS.filter(m => ops[m] != null).map(method => ({ method, path })))
  t.ok(routes.length >= 12, `${routes.length} admin routes found`)
  for (const { method, path } of routes) {
    const url = path.replace(/\{[^}]+\}/g, 'x1')
    const isLogin = method === 'post' && path === '/api/admin/auth/login'
    const anonymous = await app.inject({ method: method.toUpperCase() as 'GET', url, payload: method === 'get' || method === 'delete' ? undefined : {} })
    const asUser = await app.inject({ method: method.toUpperCase() as 'GET', url, headers: bearer(user), payload: method === 'get' || method === 'delete' ? undefined : {} })
    if (isLogin) {
      t.equal(anonymous.statusCode, 400, 'the sign-in route is public (and validates its body)')
      continue
    }
    t.equal(anonymous.statusCode, 401, `${method} ${path} without a token`)
    t.equal(asUser.statusCode, 401, `${method} ${path} with a user token`)
    const doc = paths[path][method] as { security?: unknown }
    t.same(doc.security, [{ adminBearerAuth: [] }], `${method} ${path} is documented as needing an admin token`)
  }
})

t.test('path tricks never reach admin data: they answer 401 or 404', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const user = await registerUser(app)
  const attempts = [
    ['GET', '/api/admin/admins?x=/auth/login'],
    ['GET', '/api/admin/admins?next=/api/admin/auth/login'],
    ['POST', '/api/admin/x/auth/login'],
    ['GET', '/api/admin/x/auth/login'],
    ['GET', '/api/admin/admins/auth/login'],
    ['POST', '/api/admin/admins/auth/login'],
    ['GET', '/api/admin%2Fadmins'],
    ['GET', '/api/admin/auth%2Flogin'],
    ['GET', '/api/admin/auth/login%2F..%2F..%2Fadmins'],
    ['GET', '/api/admin/auth/login/../../admins'],
    ['GET', '/api/admin/admins/'],
    ['GET', '/api/admin/audit-logs/'],
    ['GET', '/api/admin/test/'],
    ['GET', '/API/ADMIN/ADMINS'],
    ['GET', '/api/Admin/admins'],
    ['GET', '/api/admin/Admins'],
    ['GET', '//api/admin/admins'],
    ['GET', '/api/admin/%61dmins'],
    ['GET', '/api/admin/admins%252F..%252Fauth%252Flogin'],
    ['GET', '/api/admin/admins;/auth/login'],
    ['GET', '/api/admin/admins#/auth/login'],
    ['GET', '/api/admin/auth/login'],
    ['DELETE', '/api/admin/auth/login']
  ] as const
  for (const [method, url] of attempts) {
    for (const headers of [{}, bearer(user), { authorization: 'Bearer ' }]) {
      const res = await app.inject({ method, url, headers })
      t.ok([401, 404, 400].includes(res.statusCode), `${method} ${url} -> ${res.statusCode}`)
      t.notOk(res.body.includes(admin.email), `${method} ${url} shows no admin data`)
    }
  }
  t.equal((await app.inject({ method: 'GET', url: '/api/admin/admins', headers: adminBearer(admin) })).statusCode, 200, 'the real route works with the admin token')
})

t.test('every admin request is audited once answered, secrets redacted, sign-in attempts included', async t => {
  const app = await build(t)
  // The database is shared by this file's tests: read only this test's entries.
  const since = new Date().toISOString()
  const admin = await createAdmin(app)
  const userAgent = 'AdminConsole/3.1'
  const headers = { ...adminBearer(admin), 'user-agent': userAgent }

  await app.inject({ method: 'POST', url: '/api/admin/auth/login', payload: { identifier: admin.username, password: 'Wr0ng-secret-value' } })
  await app.inject({ method: 'GET', url: '/api/admin/test', headers: { authorization: 'Bearer not.a.token' } })
  const { secret } = json(await app.inject({ method: 'POST', url: '/api/admin/auth/mfa/setup', headers, payload: { password: admin.password } }))
  const code = await generate({ secret })
  await app.inject({ method: 'POST', url: '/api/admin/auth/mfa/enable', headers, payload: { password: admin.password, code } })
  await app.inject({ method: 'POST', url: '/api/admin/admins', headers, payload: { email: 'audited@example.com', username: 'audited', password: 'Another-secret-value' } })
  await app.inject({ method: 'POST', url: '/api/admin/auth/change-password', headers, payload: { currentPassword: admin.password, newPassword: 'Brand-new-secret-value' } })

  // Entries are written once a response is sent: wait for the last one.
  await eventually(async () => (await app.db`select 1 from admin_audit_logs where action = 'admin.auth.changePassword' and admin_id = ${admin.id}`).length > 0)
  const list = await app.inject({ method: 'GET', url: `/api/admin/audit-logs?limit=100&from=${encodeURIComponent(since)}`, headers })
  t.equal(list.statusCode, 200)
  const entries = json(list).auditLogs as Array<Record<string, any>>
  const byAction = (action: string) => entries.filter(e => e.action === action)

  const failed = byAction('admin.auth.login').find(e => e.status === 401)
  t.match(failed, { adminId: null, method: 'POST', path: '/api/admin/auth/login', body: { identifier: admin.username, password: '[redacted]' } })
  const success = byAction('admin.auth.login').find(e => e.status === 200)
  t.equal(success?.adminId, admin.id, 'a successful sign-in names the admin')
  t.match(byAction('admin.test')[0], { adminId: null, status: 401 }, 'a refused token is recorded too')
  t.match(byAction('admin.auth.mfaEnable')[0], { adminId: admin.id, status: 200, body: { password: '[redacted]', code: '[redacted]' }, userAgent, ip: '127.0.0.1' })
  t.match(byAction('admin.admins.create')[0], { status: 201, body: { email: 'audited@example.com', username: 'audited', password: '[redacted]' } })
  t.match(byAction('admin.auth.changePassword')[0], { status: 200, body: { currentPassword: '[redacted]', newPassword: '[redacted]' } })

  const everything = JSON.stringify(await app.db`select * from admin_audit_logs where created_at >= ${since}`)
  for (const secretValue of ['Wr0ng-secret-value', code, 'Another-secret-value', 'Brand-new-secret-value', admin.password, admin.token, secret]) {
    t.notOk(everything.includes(secretValue), 'no secret is stored in the audit log')
  }
  t.notOk(entries.some(e => e.action === 'admin.auditLogs.list'), 'the list request itself is written after it answers')
})

t.test('a path under /api/admin that matches no route is audited: 401 without an admin token, 404 with one', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const user = await registerUser(app)
  const probes = ['/api/admin/secret-export', '/api/admin/users/x1/impersonate', '/api/admin/../admin/nothing-here']
  for (const url of probes) {
    t.equal((await app.inject({ method: 'GET', url })).statusCode, 401, `GET ${url} without a token`)
    t.equal((await app.inject({ method: 'GET', url, headers: bearer(user) })).statusCode, 401, `GET ${url} with a user token`)
    const asAdmin = await app.inject({ method: 'DELETE', url, headers: adminBearer(admin) })
    t.equal(asAdmin.statusCode, 404, `DELETE ${url} as an admin`)
    t.same(json(asAdmin), { error: 'Not found' })
  }
  t.equal((await app.inject({ method: 'DELETE', url: '/api/admin/test', headers: adminBearer(admin) })).statusCode, 404, 'a known path with an unknown method too')
  await eventually(async () => (await app.db`select 1 from admin_audit_logs where method = 'DELETE' and path = '/api/admin/test'`).length > 0)
  const rows = await app.db<Array<{ adminId: string | null, action: string, method: string, path: string, status: number }>>`
    select admin_id, action, method, path, status from admin_audit_logs where path like '/api/admin/%' and status in (401, 404)
      and (path like '%secret-export' or path like '%impersonate' or path like '%nothing-here' or (path = '/api/admin/test' and method = 'DELETE'))`
  t.equal(rows.filter(r => r.status === 401).length, 6, 'every refused probe is recorded')
  const found = rows.filter(r => r.status === 404)
  t.equal(found.length, 4, 'and every admin\'s 404')
  t.ok(found.every(r => r.adminId === admin.id && r.method === 'DELETE'), 'naming the admin')
  t.ok(found.some(r => r.path === '/api/admin/secret-export'), 'with the path asked for')
  // A path outside /api/admin still gets the plain 404, and no audit entry.
  t.equal((await app.inject({ method: 'GET', url: '/api/nothing-here' })).statusCode, 404)
  t.equal((await app.db`select 1 from admin_audit_logs where path = '/api/nothing-here'`).length, 0)
})

t.test('the audit log filters by admin, action, method, status and time, and pages', async t => {
  const app = await build(t)
  const since = new Date().toISOString()
  const ann = await createAdmin(app)
  const bob = await createAdmin(app)
  const landed = async (adminId: string, action: string) =>
    await eventually(async () => (await app.db`select 1 from admin_audit_logs where admin_id = ${adminId} and action = ${action}`).length > 0)
  for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url: '/api/admin/test', headers: adminBearer(ann) })
  await app.inject({ method: 'GET', url: '/api/admin/test', headers: adminBearer(bob) })
  await landed(bob.id, 'admin.test')
  // From the rows themselves, rounded up to the millisecond the API's filter takes: a JS clock reading can fall in
  // the same millisecond as the last row and sort before its microseconds.
  const [{ before }] = await app.db<Array<{ before: string }>>`
    select to_char((date_trunc('milliseconds', max(created_at)) + interval '1 millisecond') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as before
    from admin_audit_logs`
  await app.inject({ method: 'GET', url: '/api/admin/admins', headers: adminBearer(bob) })
  await landed(bob.id, 'admin.admins.list')

  const query = async (qs: string) => json(await app.inject({ method: 'GET', url: `/api/admin/audit-logs?${qs}`, headers: adminBearer(ann) }))
  const anns = await query(`adminId=${ann.id}&action=admin.test`)
  t.equal(anns.auditLogs.length, 3)
  t.ok(anns.auditLogs.every((e: { adminId: string }) => e.adminId === ann.id))
  t.equal((await query(`adminId=${bob.id}&method=GET`)).auditLogs.length, 2)
  t.equal((await query(`status=401&from=${encodeURIComponent(since)}`)).auditLogs.length, 0)
  t.equal((await query(`status=200&action=admin.auth.login&from=${encodeURIComponent(since)}`)).auditLogs.length, 2)
  t.same((await query(`from=${encodeURIComponent(before)}&adminId=${bob.id}`)).auditLogs.map((e: { action: string }) => e.action), ['admin.admins.list'])
  t.equal((await query(`to=${encodeURIComponent(before)}&adminId=${bob.id}`)).auditLogs.length, 2, 'bob\'s sign-in and test call came before')

  const page1 = await query(`limit=2&page=1&adminId=${ann.id}&action=admin.test`)
  const page2 = await query(`limit=2&page=2&adminId=${ann.id}&action=admin.test`)
  t.equal(page1.auditLogs.length, 2)
  t.equal(page2.auditLogs.length, 1)
  t.match(page1.pagination, { page: 1, limit: 2, total: 3, totalPages: 2, hasNext: true, hasPrev: false, totalExact: true })
  t.match(page2.pagination, { page: 2, total: 3, hasNext: false, hasPrev: true })
  t.notSame(page1.auditLogs[0].id, page2.auditLogs[0].id)
  const times = [...page1.auditLogs, ...page2.auditLogs].map((e: { createdAt: string }) => Date.parse(e.createdAt))
  t.same(times, [...times].sort((a, b) => b - a), 'newest first')
  t.equal((await app.inject({ method: 'GET', url: '/api/admin/audit-logs?limit=101', headers: adminBearer(ann) })).statusCode, 400)
})
