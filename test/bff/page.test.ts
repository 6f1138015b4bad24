// The proxy's own page at `/`: two static files under a strict CSP, found beside the module (also in dist/).
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { PAGE_CSP, PAGE_FILES, PUBLIC_DIR } from '../../bff/plugins/page.js'
import { htmlElements, refusingApiUrl, startProxy } from './helpers.js'

t.test('GET / and /app.js: the page, from the proxy itself', async t => {
  // The API is down: the page is the proxy's own.
  const { proxy } = await startProxy(t, await refusingApiUrl())
  t.equal(PAGE_CSP, "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")

  const html = await proxy.inject('/')
  t.equal(html.statusCode, 200)
  t.equal(html.headers['content-type'], 'text/html; charset=utf-8')
  t.equal(html.headers['content-security-policy'], PAGE_CSP, 'the strict policy, not the proxy\'s default one')
  t.equal(html.headers['cache-control'], 'no-cache')
  t.equal(html.headers['x-content-type-options'], 'nosniff', 'the proxy\'s security headers stay')
  t.equal(html.headers['x-frame-options'], 'SAMEORIGIN')
  t.equal(html.headers['cross-origin-resource-policy'], 'same-origin')

  // Nothing the strict CSP would block: no inline script, handler, style or javascript: URL.
  const all = htmlElements(html.body)
  const scripts = all.filter(el => el.tagName === 'script')
  t.same(scripts.map(el => el.attrs.find(a => a.name === 'src')?.value), ['/app.js'], 'one external script')
  t.ok(scripts.every(el => el.childNodes.length === 0), 'with no inline code')
  t.equal(all.filter(el => el.tagName === 'style').length, 0, 'no <style>')
  const attributes = all.flatMap(el => el.attrs.map(a => ({ tag: el.tagName, ...a })))
  t.same(attributes.filter(a => /^on/i.test(a.name) || a.name === 'style' || /^\s*javascript:/i.test(a.value)), [], 'no handler, style or javascript: attribute')
  t.ok(all.some(el => el.tagName === 'form' && el.attrs.some(a => a.name === 'id' && a.value === 'signin-form')), 'a sign-in form')

  const js = await proxy.inject('/app.js')
  t.equal(js.statusCode, 200)
  t.equal(js.headers['content-type'], 'text/javascript; charset=utf-8')
  t.equal(js.body, await readFile(new URL('app.js', PUBLIC_DIR), 'utf8'))
  // Data is written as text only; every call stays on this origin with the cookie.
  t.notMatch(js.body, /\.innerHTML|\.outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/, 'no HTML sink')
  t.notMatch(js.body, /https?:\/\//, 'no absolute URL: same origin only')
  t.notMatch(js.body, /localStorage|sessionStorage|document\.cookie/, 'keeps nothing of the session itself')
  t.match(js.body, /credentials: 'same-origin'/)
  for (const path of ['/bff/auth/login', '/bff/auth/refresh', '/bff/auth/session', '/bff/auth/logout', '/bff/api/recipes', '/bff/api/social/recipes/']) {
    t.ok(js.body.includes(path), `uses ${path}`)
  }

  t.equal((await proxy.inject({ method: 'HEAD', url: '/' })).statusCode, 200)
  t.equal((await proxy.inject({ method: 'POST', url: '/' })).statusCode, 404, 'GET and HEAD only')
  t.equal((await proxy.inject('/index.html')).statusCode, 404, 'nothing else of the folder is served')
  t.equal((await proxy.inject('/../package.json')).statusCode, 404)
  const docs = await proxy.inject('/bff/docs/json')
  t.notOk(Object.keys(JSON.parse(docs.body).paths).includes('/'), 'the page is not an API operation')
})

t.test('the files are found beside the module, as `npm run build` copies them', async t => {
  t.match(fileURLToPath(PUBLIC_DIR), /\/bff\/public\/$/)
  t.same(PAGE_FILES.map(file => file.file), ['index.html', 'app.js'])
  const build: string = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')).scripts.build
  t.match(build, /cpSync\('bff\/public','dist\/bff\/public',\{recursive:true\}\)/, 'the build copies bff/public to dist/bff/public')
})
