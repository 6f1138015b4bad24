// The recipe app's files as the proxy serves them: the strict CSP unchanged on the page at `/` and at every screen's
// path, no inline script or style in the HTML, the modules and stylesheet of bff/public/assets with their types and
// nothing else of the disk, and no HTML sink, eval or absolute URL in any script.
import { readdir, readFile } from 'node:fs/promises'
import t from 'tap'
import { APP_PATHS, ASSETS_DIR, PAGE_CSP } from '../../bff/plugins/page.js'
import { htmlElements, refusingApiUrl, startProxy } from './helpers.js'

const STRICT = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

t.test('the app\'s page and assets, from the proxy', async t => {
  const { proxy } = await startProxy(t, await refusingApiUrl())
  t.equal(PAGE_CSP, STRICT, 'the policy is the strict one, unchanged')

  const home = await proxy.inject('/')
  for (const path of ['/', ...APP_PATHS.map(path => path.replace(/:[a-z]+/g, 'abc123'))]) {
    const res = await proxy.inject(path)
    t.equal(res.statusCode, 200, `${path}: served`)
    t.equal(res.headers['content-security-policy'], STRICT, `${path}: under the strict CSP`)
    t.equal(res.headers['content-type'], 'text/html; charset=utf-8')
    t.equal(res.body, home.body, `${path}: the app's one page (the script draws the screen)`)
  }
  const reset = await proxy.inject('/reset-password?token=abc')
  t.equal(reset.statusCode, 200, 'the reset link of the password email opens the app')

  const all = htmlElements(home.body)
  const scripts = all.filter(el => el.tagName === 'script')
  t.same(scripts.map(el => Object.fromEntries(el.attrs.map(a => [a.name, a.value]))), [{ type: 'module', src: '/app.js' }], 'one external module')
  t.ok(scripts.every(el => el.childNodes.length === 0), 'no inline script')
  t.equal(all.filter(el => el.tagName === 'style').length, 0, 'no <style>')
  const attributes = all.flatMap(el => el.attrs.map(a => ({ tag: el.tagName, ...a })))
  t.same(attributes.filter(a => /^on/i.test(a.name) || a.name === 'style' || /^\s*javascript:/i.test(a.value)), [], 'no handler, style attribute or javascript: URL')
  t.same(all.filter(el => el.tagName === 'link' && el.attrs.some(a => a.value === 'stylesheet')).map(el => el.attrs.find(a => a.name === 'href')?.value), ['/assets/app.css'])
  t.ok(all.some(el => el.tagName === 'main'), 'a main landmark')
  t.ok(all.some(el => el.tagName === 'nav' && el.attrs.some(a => a.name === 'aria-label')), 'a labelled navigation landmark')
  t.ok(all.some(el => el.tagName === 'html' && el.attrs.some(a => a.name === 'lang' && a.value === 'en')), 'the language is declared')

  const names = (await readdir(ASSETS_DIR)).sort()
  t.ok(names.includes('app.css') && names.includes('dom.js'), 'the assets folder')
  for (const name of names) {
    const res = await proxy.inject(`/assets/${name}`)
    t.equal(res.statusCode, 200, `${name}: served`)
    t.equal(res.headers['content-type'], name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8')
    t.equal(res.body, await readFile(new URL(name, ASSETS_DIR), 'utf8'))
  }
  for (const path of ['/assets/nope.js', '/assets/..%2fapp.js', '/assets/%2e%2e%2f%2e%2e%2fpackage.json', '/assets/', '/assets/app.css/x', '/index.html', '/recipes/a/b/c']) {
    t.equal((await proxy.inject(path)).statusCode, 404, `${path}: 404`)
  }
  t.equal((await proxy.inject({ method: 'POST', url: '/recipes/abc' })).statusCode, 404, 'GET and HEAD only')

  // Every script: data written as text only, no eval, same origin only, nothing of the session kept.
  const scriptsText = [await readFile(new URL('../../bff/public/app.js', import.meta.url), 'utf8'),
    ...await Promise.all(names.filter(name => name.endsWith('.js')).map(async name => await readFile(new URL(name, ASSETS_DIR), 'utf8')))]
  for (const body of scriptsText) {
    t.notMatch(body, /\.innerHTML|\.outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|setTimeout\(['"`]/, 'no HTML sink or eval')
    t.notMatch(body.replace(/placeholder: '[^']*'/g, ''), /["'`]https?:\/\//, 'no absolute URL (but a placeholder): everything through the proxy')
    t.notMatch(body, /localStorage|sessionStorage|document\.cookie/, 'keeps nothing of the session itself')
  }
  const css = await readFile(new URL('app.css', ASSETS_DIR), 'utf8')
  t.notMatch(css, /@import|url\(\s*['"]?https?:/, 'the stylesheet loads nothing from elsewhere')
})
