// The web proxy in a real browser (Chromium through playwright-core): its page signs in, shows the user, lists,
// creates and likes recipes, renews and ends the session, all through /bff. The cookie as the browser keeps it, the
// token out of reach of scripts, and pages of other origins (another port on localhost: same site; 127.0.0.1: another
// site) refused or unable to read. One browser for the file; the steps run in order on one signed-in context.
import type { BrowserContext, Page } from 'playwright-core'
import t from 'tap'
import { PAGE_CSP } from '../../bff/plugins/page.js'
import { bearer, eventually, json, registerUser } from '../helper.js'
import { chromiumMissing, launchChromium, otherSite, startBrowserBff, type BrowserBff, type ProxyAnswer, type Site } from './browser-helpers.js'
import { rawRequest } from './helpers.js'

const COOKIE = 'auth_token'
const FORBIDDEN = { error: 'Forbidden' }

// Without Chromium the test is reported as skipped, with the reason and the command that installs it; never green.
t.test('the web proxy in Chromium', { skip: chromiumMissing }, async t => {
  const browser = await launchChromium(t)
  const bff: BrowserBff = await startBrowserBff(t)
  const { api, pageOrigin } = bff
  const site: Site = await otherSite(t)
  const user = await registerUser(api)
  const other = await registerUser(api)

  const context: BrowserContext = await browser.newContext()
  t.teardown(async () => await context.close())
  const page: Page = await context.newPage()
  // Any script error or CSP violation on the proxy's page is a failure (not the console lines Chromium writes for
  // every 4xx answer, which the page expects: 401 while signed out, 404 for the blocked paths).
  const pageErrors: string[] = []
  page.on('pageerror', err => pageErrors.push(err.message))
  page.on('console', message => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource: the server responded')) pageErrors.push(message.text())
  })

  const sessionCookie = async () => (await context.cookies(pageOrigin)).find(cookie => cookie.name === COOKIE)
  const apiStatus = async (token: string): Promise<number> =>
    (await api.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode
  const count = async (sql: 'recipes' | 'likes'): Promise<number> => {
    const rows = sql === 'recipes'
      ? await api.db<Array<{ n: number }>>`select count(*)::int as n from recipes`
      : await api.db<Array<{ n: number }>>`select count(*)::int as n from likes`
    return rows[0].n
  }

  let token = ''

  await t.test('the page loads under its strict CSP and signs in through the form', async t => {
    const response = await page.goto(`${pageOrigin}/`)
    t.equal(response?.status(), 200)
    t.equal(response?.headers()['content-security-policy'], PAGE_CSP, 'the strict policy on the page')
    await page.waitForSelector('body[data-state="signed-out"]')
    t.equal(await sessionCookie(), undefined, 'no cookie yet')

    await page.fill('#identifier', user.username)
    await page.fill('#password', user.password)
    const login = page.waitForResponse(r => r.url() === `${pageOrigin}/bff/auth/login`)
    await page.click('#signin-button')
    t.equal((await login).status(), 200)
    await page.waitForSelector('body[data-state="signed-in"]')
    t.equal(await page.textContent('#username'), user.username, 'the signed-in user is shown')
    t.notMatch(await (await login).text(), /eyJ|token/, 'the answer the page reads has no token')
  })

  await t.test('the cookie as the browser keeps it, out of reach of scripts', async t => {
    const cookie = await sessionCookie()
    t.ok(cookie, 'the session cookie is set')
    t.equal(cookie?.httpOnly, true, 'httpOnly')
    t.equal(cookie?.sameSite, 'Lax', 'SameSite=Lax')
    t.equal(cookie?.path, '/', 'Path=/')
    t.equal(cookie?.secure, true, 'Secure (Chromium keeps it over http only because localhost is a secure context)')
    t.equal(cookie?.domain, 'localhost', 'host-only, for the proxy\'s host')
    const expected = Date.now() / 1000 + 24 * 3600
    t.ok(Math.abs(cookie!.expires - expected) < 120, `expires about 24 h from now (${cookie?.expires} vs ${expected})`)
    token = cookie!.value
    t.equal(await apiStatus(token), 200, 'it holds a working API token')

    const visible = await page.evaluate<string>('document.cookie')
    t.notMatch(visible, COOKIE, 'document.cookie does not show it')
    t.notOk(visible.includes(token), 'nor its value')
    t.same(pageErrors, [], 'no script error or CSP violation so far')
  })

  await t.test('an authenticated call from the page: create and like a recipe; data is escaped', async t => {
    const recipesBefore = await count('recipes')
    // Markup in a title must come out as text (the API's sanitizer keeps harmless tags; the page never parses them).
    const title = `Pie <b>bold</b> <img src="x.png"> & "quotes" ${process.pid}`
    await page.fill('#title', title)
    await page.fill('#ingredients', '1 cup flour\n2 eggs')
    const created = page.waitForResponse(r => r.url() === `${pageOrigin}/bff/api/recipes` && r.request().method() === 'POST')
    await page.click('#create-button')
    t.equal((await created).status(), 201)
    const recipe = (await (await created).json()).recipe
    t.equal(await count('recipes'), recipesBefore + 1, 'the recipe is in the database')
    t.equal(recipe.author.id, user.id, 'created as the signed-in user')

    const item = page.locator(`li[data-recipe-id="${recipe.id}"]`)
    await item.waitFor()
    t.equal(await item.locator('.recipe-title').textContent(), recipe.title, 'the title as the API returned it, as text')
    t.match(recipe.title, /<b>bold<\/b>/, 'the title really holds markup')
    t.equal(await page.locator('#recipe-list b, #recipe-list img, #recipe-list script').count(), 0, 'no element came from the data')

    const liked = page.waitForResponse(r => r.url().endsWith(`/bff/api/social/recipes/${recipe.id}/like`))
    await item.locator('.like-button').click()
    t.equal((await liked).status(), 200)
    // A locator, not a string predicate: the page's CSP refuses to evaluate strings when the wait has to poll.
    await item.locator('.like-count', { hasText: /^1$/ }).waitFor()
    const stored = await api.inject({ url: `/api/recipes/${recipe.id}`, headers: bearer(user) })
    t.equal(json(stored).recipe.likeCount, 1)
    t.equal(json(stored).recipe.isLiked, true, 'liked by the signed-in user')
    t.same(pageErrors, [])
  })

  await t.test('pages of other origins cannot act through the proxy', async t => {
    const target = await api.inject({ method: 'POST', url: '/api/recipes', headers: bearer(other), payload: { title: 'Target', ingredients: ['salt'] } })
    const targetId: string = json(target).recipe.id
    const likePath = `/bff/api/social/recipes/${targetId}/like`
    const hostile = await context.newPage()
    t.teardown(async () => await hostile.close())
    /** What the proxy answered to `method path` after the `since`-th request (the page itself cannot read it). */
    const answered = async (method: string, path: string, since: number): Promise<ProxyAnswer> => await eventually(async () =>
      bff.proxyAnswered.slice(since).find(answer => answer.method === method && answer.url === path))

    site.page('/blank.html', '<!doctype html><title>another origin</title>')
    // An auto-submitted form: a top-level POST navigation (the script runs on the other origin, not on the proxy's page).
    site.page('/form.html', `<!doctype html><title>another origin: form</title>
      <form id="like" method="POST" action="${pageOrigin}${likePath}"><input name="x" value="1"></form>
      <form id="create" method="POST" enctype="text/plain" action="${pageOrigin}/bff/api/recipes"><input name='{"title":"csrf","ingredients":["x"],"p":"' value='"}'></form>
      <script>document.getElementById(location.hash.slice(1)).submit()</script>`)

    for (const host of ['localhost', '127.0.0.1'] as const) {
      const origin = site.origin(host)
      // Two ports on localhost are one site (SameSite=Lax sends the cookie); 127.0.0.1 is another site (it does not).
      const sameSite = host === 'localhost'
      const recipes = await count('recipes')
      const likes = await count('likes')
      const refused = (answer: ProxyAnswer, what: string): void => {
        t.equal(answer.status, 403, `${host}: ${what}: 403`)
        t.equal(answer.origin, origin, `${host}: ${what}: the browser named the other origin`)
        t.equal(answer.fetchSite, sameSite ? 'same-site' : 'cross-site')
        t.equal(answer.cookie, sameSite, sameSite
          ? `${host}: ${what}: the cookie was sent, so the origin check is what refused it`
          : `${host}: ${what}: SameSite=Lax kept the cookie back as well`)
        t.equal(answer.allowOrigin, undefined, `${host}: ${what}: no CORS grant`)
      }

      // fetch POSTs with credentials: without a body or as text/plain they are "simple" requests, sent without a preflight.
      await hostile.goto(`${origin}/blank.html`)
      for (const [path, body] of [[likePath, null], ['/bff/api/recipes', '{"title":"csrf","ingredients":["x"]}']] as const) {
        const since = bff.proxyAnswered.length
        const outcome = await hostile.evaluate(async ({ url, body }) => {
          try {
            const response = await fetch(url, { method: 'POST', credentials: 'include', ...(body != null && { headers: { 'content-type': 'text/plain' }, body }) })
            return `read ${response.status}`
          } catch (err) {
            return `rejected ${(err as Error).name}`
          }
        }, { url: `${pageOrigin}${path}`, body })
        t.equal(outcome, 'rejected TypeError', `${host}: fetch POST ${path}: the script cannot even read the refusal`)
        refused(await answered('POST', path, since), `fetch POST ${path}`)
      }

      for (const [form, path] of [['like', likePath], ['create', '/bff/api/recipes']] as const) {
        const since = bff.proxyAnswered.length
        const navigation = hostile.waitForResponse(response => response.url() === `${pageOrigin}${path}`)
        await hostile.goto(`${origin}/form.html#${form}`)
        const response = await navigation
        t.equal(response.status(), 403, `${host}: auto-submitted form POST ${path}: the browser got 403`)
        t.same(await response.json(), FORBIDDEN)
        refused(await answered('POST', path, since), `form POST ${path}`)
      }

      t.equal(await count('recipes'), recipes, `${host}: no recipe created`)
      t.equal(await count('likes'), likes, `${host}: no like added`)
      t.equal(json(await api.inject({ url: `/api/recipes/${targetId}`, headers: bearer(other) })).recipe.likeCount, 0, 'the target has no like')

      // Reads: a GET is not origin-checked and may happen, but nothing of the answer reaches the other origin's script.
      await hostile.goto(`${origin}/blank.html`)
      for (const path of ['/bff/auth/session', '/bff/api/auth/me']) {
        const since = bff.proxyAnswered.length
        const outcome = await hostile.evaluate(async url => {
          try {
            const response = await fetch(url, { credentials: 'include' })
            return `read ${response.status} ${await response.text()}`
          } catch (err) {
            return `rejected ${(err as Error).name}`
          }
        }, `${pageOrigin}${path}`)
        t.equal(outcome, 'rejected TypeError', `${host}: GET ${path}: the fetch rejects`)
        const answer = await answered('GET', path, since)
        t.equal(answer.allowOrigin, undefined, `${host}: GET ${path}: no Access-Control-Allow-Origin`)
        // Same site: the cookie went along and the answer was the user's data, which the script still never saw.
        t.equal(answer.status, sameSite ? 200 : 401, `${host}: GET ${path} answered ${sameSite ? '200 with the cookie' : '401: no cookie sent'}`)
        t.equal(answer.cookie, sameSite)
        // Not even an opaque answer: Cross-Origin-Resource-Policy: same-origin makes a no-cors fetch fail too.
        const since2 = bff.proxyAnswered.length
        const blind = await hostile.evaluate(async url => {
          try {
            const response = await fetch(url, { credentials: 'include', mode: 'no-cors' })
            return `read ${response.type} ${response.status} ${await response.text()}`
          } catch (err) {
            return `rejected ${(err as Error).name}`
          }
        }, `${pageOrigin}${path}`)
        t.equal(blind, 'rejected TypeError', `${host}: GET ${path} in no-cors mode: rejected as well`)
        t.equal((await answered('GET', path, since2)).resourcePolicy, 'same-origin', 'because of Cross-Origin-Resource-Policy')
      }
    }
    t.equal(await apiStatus(token), 200, 'the session still works')
  })

  await t.test('refresh renews the session: new cookie value, the old token refused', async t => {
    const refreshed = page.waitForResponse(r => r.url() === `${pageOrigin}/bff/auth/refresh`)
    await page.click('#refresh-button')
    const response = await refreshed
    t.equal(response.status(), 200)
    t.same(await response.json(), { expiresIn: 86_400 }, 'no token in the body')
    await page.locator('#status', { hasText: /^Session renewed$/ }).waitFor()
    const cookie = await sessionCookie()
    t.ok(cookie != null && cookie.value !== token, 'the cookie holds a new token')
    t.equal(cookie?.httpOnly, true)
    t.ok(Math.abs(cookie!.expires - (Date.now() / 1000 + 24 * 3600)) < 120, 'for another 24 h')
    t.equal(await apiStatus(token), 401, 'the old token is revoked')
    t.equal(await apiStatus(cookie!.value), 200, 'the new one works')
    const old = token
    token = cookie!.value

    await page.reload()
    await page.waitForSelector('body[data-state="signed-in"]')
    t.equal(await page.textContent('#username'), user.username, 'a reload finds the session through /bff/auth/session')
    t.notOk(old === token)
  })

  await t.test('admin and docs stay out of reach, whatever the path looks like', async t => {
    const before = bff.apiSaw.length
    // The page asks with the paths as written; the browser normalises dot segments (also %2e) and backslashes itself.
    const fromPage: Array<[string, number]> = [
      ['/bff/api/admin/users', 404],
      ['/bff/api/ADMIN/users', 404],
      ['/bff/api/%61dmin/users', 404],
      ['/bff/api/recipes/../admin/users', 404],
      ['/bff/api/./admin', 404],
      ['/bff/api/%2e%2e/api/admin/users', 404],
      ['/bff/api//admin/users', 404],
      ['/bff/api/admin%2Fusers', 404],
      ['/bff/api/admin%2fusers', 404],
      ['/bff/api\\admin\\users', 404],
      ['/bff/api/recipes%2F..%2Fadmin/users', 404],
      ['/bff/api/%252e%252e/admin/users', 404],
      ['/bff/api/%2561dmin/users', 404],
      ['/bff/api/admin;x=1/users', 404],
      ['/bff/api/docs', 404],
      ['/bff/api/docs/json', 404],
      ['/bff/api/%64ocs/json', 404],
      ['/bff/api/unsubscribe/preview/x', 404]
    ]
    const seen = await page.evaluate(async paths => await Promise.all(paths.map(async path => {
      const response = await fetch(path, { credentials: 'same-origin' })
      return { path, url: response.url, status: response.status, body: await response.text() }
    })), fromPage.map(([path]) => path))
    for (const [i, [path, status]] of fromPage.entries()) {
      t.equal(seen[i].status, status, `page: ${path} -> ${new URL(seen[i].url).pathname}`)
      if (status === 404) t.match(JSON.parse(seen[i].body), { error: /^Not found$/i }, 'the answer of any unknown path')
    }

    // The same and worse with the request line exactly as sent (curl --path-as-is), which a browser cannot do.
    const raw: Array<[string, number]> = [
      ['/bff/api/recipes/../admin/users', 404],
      ['/bff/api/./admin', 404],
      ['/bff/api/%2e%2e/api/admin/users', 404],
      ['/bff/api/recipes/%2E%2E/admin/users', 404],
      ['/bff/api/recipes/..%2Fadmin/users', 404],
      ['/bff/api/recipes%2F..%2Fadmin/users', 404],
      ['/bff/api\\admin\\users', 404],
      ['/bff/api/recipes\\..\\admin\\users', 404],
      ['/bff/api/%5Cadmin/users', 404],
      ['/bff/api/admin%00/users', 400],
      ['/bff/api/%C0%AEadmin/users', 400],
      ['/bff/api/%61dmin/users', 404],
      ['/bff/api/admin%2Fusers', 404],
      ['/bff/api/%2561dmin/users', 404],
      ['/bff/api/docs/', 404],
      ['/bff/api/./docs/json', 404]
    ]
    for (const [path, status] of raw) {
      const res = await rawRequest(bff.port, 'GET', path, { cookie: `${COOKIE}=${token}` })
      t.equal(res.statusCode, status, `raw: ${path}`)
    }

    // What did reach the API were ordinary unknown paths (404), never the admin, docs or preview routes.
    const reached = bff.apiSaw.slice(before)
    const decodedOnce = reached.map(url => { try { return decodeURIComponent(url) } catch { return url } })
    t.notOk(decodedOnce.some(url => /^\/api\/+(admin|docs|unsubscribe\/preview)(\/|\?|;|$)/i.test(url)), `the API saw no blocked path: ${reached.join(' ')}`)
    t.equal(await apiStatus(token), 200)
  })

  await t.test('sign out clears the cookie and the token stops working', async t => {
    const logout = page.waitForResponse(r => r.url() === `${pageOrigin}/bff/auth/logout`)
    await page.click('#signout-button')
    t.equal((await logout).status(), 200)
    await page.waitForSelector('body[data-state="signed-out"]')
    t.equal(await sessionCookie(), undefined, 'the browser dropped the cookie')
    t.equal(await apiStatus(token), 401, 'the captured token is refused by the API')
    const session = await page.evaluate(async () => (await fetch('/bff/auth/session', { credentials: 'same-origin' })).status)
    t.equal(session, 401, 'the page is signed out')
    t.equal(await page.locator('#recipe-list li').count(), 0, 'nothing of the session is left on the page')
    t.same(pageErrors, [], 'no script error or CSP violation in the whole run')
  })
})
