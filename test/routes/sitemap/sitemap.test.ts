// /sitemap.xml, its pages and /robots.txt: well-formed XML (a real parser), only what anonymous users may list, and the
// index mode past the page size, whose pages together hold every URL exactly once.
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { build, createRecipe, registerUser, setAccountStatus } from '../../helper.js'

const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9'
const PUBLIC_URL = 'https://recipes.example'
const API_URL = 'https://api.recipes.example'
const ENV = { PUBLIC_URL, API_PUBLIC_URL: API_URL }
const W3C_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

const parser = new XMLParser({ ignoreAttributes: false, isArray: name => name === 'url' || name === 'sitemap' })

interface Document { kind: 'urlset' | 'sitemapindex', locs: string[] }

/** Fetches an XML document, checks it is well-formed, served as XML and cacheable, and returns its locations. */
async function fetchXml (t: Test, app: FastifyInstance, url: string): Promise<Document> {
  const res = await app.inject({ url })
  t.equal(res.statusCode, 200, `${url} is served`)
  t.equal(res.headers['content-type'], 'application/xml; charset=utf-8')
  t.equal(res.headers['cache-control'], 'public, max-age=3600')
  const valid = XMLValidator.validate(res.body)
  t.equal(valid, true, `${url} is well-formed: ${JSON.stringify(valid)}`)
  t.ok(res.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>'), 'with an XML declaration')
  const parsed = parser.parse(res.body)
  if (parsed.urlset != null) {
    t.equal(parsed.urlset['@_xmlns'], NAMESPACE)
    const urls: Array<{ loc: string, lastmod: string }> = parsed.urlset.url ?? []
    for (const u of urls) t.match(u.lastmod, W3C_DATETIME, `lastmod of ${u.loc} is a W3C datetime`)
    return { kind: 'urlset', locs: urls.map(u => u.loc) }
  }
  t.equal(parsed.sitemapindex?.['@_xmlns'], NAMESPACE, 'a sitemap index otherwise')
  return { kind: 'sitemapindex', locs: (parsed.sitemapindex.sitemap as Array<{ loc: string }>).map(s => s.loc) }
}

/**
 * The sitemap covers the whole database, which the tests of this file share: each test starts from no users (their
 * recipes and everything else go with them), so its expectations are exact.
 */
async function emptyDatabase (app: FastifyInstance): Promise<void> {
  await app.db`delete from users`
}

const recipeUrl = (recipe: { id?: unknown }) => `${PUBLIC_URL}/recipes/${String(recipe.id)}`
const userUrl = (user: { username: string }) => `${PUBLIC_URL}/users/${user.username}`

t.test('the sitemap lists exactly the recipes anonymous users may list, and their authors', async t => {
  const app = await build(t, { env: ENV, share: true })
  await emptyDatabase(app)
  const [author, member, banned, deactivated, idle, secretive] = await Promise.all(Array.from({ length: 6 }, async () => await registerUser(app)))
  const listed = {
    public: await createRecipe(app, author, { title: 'Salt & pepper <fast> "steak"' }),
    pending: await createRecipe(app, author, { title: 'Pending review' })
  }
  const hidden = {
    private: await createRecipe(app, author, { visibility: 'private' }),
    friends: await createRecipe(app, author, { visibility: 'friends' }),
    custom: await createRecipe(app, author, { visibility: 'custom', audienceUserIds: [member.id] }),
    draft: await createRecipe(app, author, { published: false }),
    rejected: await createRecipe(app, author),
    flagged: await createRecipe(app, author),
    bannedAuthor: await createRecipe(app, banned),
    deactivatedAuthor: await createRecipe(app, deactivated),
    onlyPrivate: await createRecipe(app, secretive, { visibility: 'private' })
  }
  // Moderation and bans have no API yet: set in the tables.
  await app.db`update recipes set moderation_status = 'pending' where id = ${listed.pending.id}`
  await app.db`update recipes set moderation_status = 'rejected' where id = ${hidden.rejected.id}`
  await app.db`update recipes set moderation_status = 'flagged' where id = ${hidden.flagged.id}`
  await setAccountStatus(app, banned, { banned: true })
  await setAccountStatus(app, deactivated, { active: false })

  const sitemap = await fetchXml(t, app, '/sitemap.xml')
  t.equal(sitemap.kind, 'urlset')
  t.same([...sitemap.locs].sort(), [recipeUrl(listed.public), recipeUrl(listed.pending), userUrl(author)].sort(),
    'listed recipes and the one author with a listed recipe; nothing hidden, no user without a listed recipe')
  for (const recipe of Object.values(hidden)) t.notOk(sitemap.locs.includes(recipeUrl(recipe)), 'a hidden recipe is left out')
  for (const user of [member, banned, deactivated, idle, secretive]) t.notOk(sitemap.locs.includes(userUrl(user)), `${user.username} is left out`)

  // A recipe hidden after the sitemap was first built is left out at once.
  await app.db`update recipes set visibility = 'private' where id = ${listed.pending.id}`
  t.notOk((await fetchXml(t, app, '/sitemap.xml')).locs.includes(recipeUrl(listed.pending)), 'made private: gone')
})

t.test('text needing escapes never breaks the XML', async t => {
  const app = await build(t, { env: { ...ENV, PUBLIC_URL: 'https://recipes.example/app?site=a&lang=en' } })
  await emptyDatabase(app)
  const author = await registerUser(app)
  await createRecipe(app, author, { title: 'A & B <b>bold</b> ]]> \'quoted\'' })
  const res = await app.inject({ url: '/sitemap.xml' })
  t.equal(XMLValidator.validate(res.body), true, 'well-formed')
  t.match(res.body, /<loc>https:\/\/recipes\.example\/app\?site=a&amp;lang=en\/recipes\//, 'an & in a URL is escaped')
  t.notMatch(res.body, /&(?!amp;|lt;|gt;|quot;|apos;)/, 'no bare ampersand anywhere')
  const { urlset } = parser.parse(res.body)
  t.equal(urlset.url.length, 2, 'the recipe and its author')
})

t.test('past the page size the sitemap is an index of pages that hold every URL exactly once', async t => {
  const app = await build(t, { env: ENV, share: true })
  await emptyDatabase(app)
  const authors = await Promise.all(Array.from({ length: 3 }, async () => await registerUser(app)))
  const recipes = []
  for (let i = 0; i < 5; i++) recipes.push(await createRecipe(app, authors[i % 3], { title: `Dish ${i}` }))
  // Left out of every page, and never a reason for a page to stop early.
  const banned = await registerUser(app)
  await createRecipe(app, banned, { title: 'Banned dish' })
  await setAccountStatus(app, banned, { banned: true })
  const everything = [...recipes.map(recipeUrl), ...authors.map(userUrl)].sort()

  const whole = await fetchXml(t, app, '/sitemap.xml')
  t.equal(whole.kind, 'urlset', 'within the default page size: one urlset')
  t.same([...whole.locs].sort(), everything)

  app.sitemapService.pageSize = everything.length
  t.equal((await fetchXml(t, app, '/sitemap.xml')).kind, 'urlset', 'exactly the page size still fits one urlset')

  for (const size of [7, 5, 2, 1]) {
    await t.test(`pages of ${size}`, async t => {
      app.sitemapService.pageSize = size
      const index = await fetchXml(t, app, '/sitemap.xml')
      t.equal(index.kind, 'sitemapindex')
      const recipePages = Math.ceil(recipes.length / size)
      const userPages = Math.ceil(authors.length / size)
      t.same(index.locs, [
        ...Array.from({ length: recipePages }, (_, i) => `${API_URL}/sitemaps/recipes-${i + 1}.xml`),
        ...Array.from({ length: userPages }, (_, i) => `${API_URL}/sitemaps/users-${i + 1}.xml`)
      ], 'every page is listed, on the API\'s address')
      const found: string[] = []
      for (const loc of index.locs) {
        const page = await fetchXml(t, app, loc.slice(API_URL.length))
        t.equal(page.kind, 'urlset')
        t.ok(page.locs.length >= 1 && page.locs.length <= size, `${loc} holds 1 to ${size} URLs`)
        found.push(...page.locs)
      }
      t.same(found.sort(), everything, 'together the pages hold every URL exactly once')
      for (const unknown of [`recipes-${recipePages + 1}.xml`, `users-${userPages + 1}.xml`, 'recipes-0.xml', 'recipes-1.txt', 'tags-1.xml']) {
        const res = await app.inject({ url: `/sitemaps/${unknown}` })
        t.equal(res.statusCode, 404, `${unknown} is 404`)
      }
    })
  }
})

t.test('large pages are written in batches, with ties on the creation time kept in order', async t => {
  const app = await build(t, { env: ENV, share: true })
  await emptyDatabase(app)
  const author = await registerUser(app)
  // Volume, not behaviour: 2,300 recipes through the API would take minutes. One statement gives them all the same
  // created_at, so page boundaries and batches rest on the id tie-breaker.
  await app.db`insert into recipes (id, author_id, slug, title)
    select 'bulk' || lpad(n::text, 5, '0'), ${author.id}, 'bulk-' || n, 'Bulk ' || n from generate_series(1, 2300) n`
  app.sitemapService.pageSize = 1500
  const index = await fetchXml(t, app, '/sitemap.xml')
  t.same(index.locs, [`${API_URL}/sitemaps/recipes-1.xml`, `${API_URL}/sitemaps/recipes-2.xml`, `${API_URL}/sitemaps/users-1.xml`])
  const first = await fetchXml(t, app, '/sitemaps/recipes-1.xml')
  const second = await fetchXml(t, app, '/sitemaps/recipes-2.xml')
  t.equal(first.locs.length, 1500, 'a full page, read in two batches')
  t.equal(second.locs.length, 800)
  t.equal(new Set([...first.locs, ...second.locs]).size, 2300, 'no recipe twice, none missing')
  t.same((await fetchXml(t, app, '/sitemaps/users-1.xml')).locs, [userUrl(author)])
})

t.test('robots.txt', async t => {
  const app = await build(t, { env: ENV, share: true })
  const res = await app.inject({ url: '/robots.txt' })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-type'], 'text/plain; charset=utf-8')
  const lines = res.body.split('\n')
  t.equal(lines[0], 'User-agent: *')
  t.ok(lines.includes('Allow: /'), 'the site may be crawled')
  t.ok(lines.includes('Disallow: /api/'), 'the API may not')
  t.ok(lines.includes('Disallow: /bff/'), 'nor the web proxy')
  t.ok(lines.includes(`Sitemap: ${API_URL}/sitemap.xml`), 'the sitemap is named with its absolute address')
})
