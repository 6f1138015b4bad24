// The sitemap of the web app: listed recipes (`<publicUrl>/recipes/<id>`) and the profiles of their authors
// (`<publicUrl>/users/<username>`). Up to `pageSize` URLs in all, /sitemap.xml is one `<urlset>`; beyond, it is a
// `<sitemapindex>` of /sitemaps/recipes-<n>.xml and /sitemaps/users-<n>.xml, each of at most `pageSize` URLs.
// Profiles are listed only with at least one listed recipe: a profile with nothing public is thin content to a search
// engine, and its page shows nothing a crawler could index. Where pages end is computed by one ordered scan and kept in
// the cache for LAYOUT_TTL_SECONDS, so a crawl of n pages costs one scan, not n; the rows themselves are read when a
// page is served (a recipe hidden since is left out at once), in keyset batches written to the response as they come,
// so memory stays flat and no database connection is held while a slow client reads.
import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { NotFound } from '../../../lib/errors.js'
import { SITEMAP_MAX_URLS } from '../../../schemas/sitemap.js'
import { tryCache } from '../../external/cache.js'
import type { Boundaries, RecipeKey } from '../repositories/sitemap.js'

declare module 'fastify' {
  interface FastifyInstance {
    sitemapService: ReturnType<typeof createSitemapService>
  }
}

const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9'
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
/** Rows read per query while a page is written. */
const BATCH = 1000
/** How long page boundaries are reused; a page whose rows moved meanwhile is at worst a little short or long. */
const LAYOUT_TTL_SECONDS = 10 * 60
const PAGE_FILE = /^(recipes|users)-([1-9][0-9]{0,8})\.xml$/

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }
export const escapeXml = (text: string) => text.replace(/[&<>"']/g, c => XML_ENTITIES[c])

interface Layout { recipes: Boundaries<RecipeKey>, users: Boundaries<string> }

/** How many pages of at most `size` rows the boundaries make. */
const pageCount = ({ total, ends }: Boundaries<unknown>) => total === 0 ? 0 : ends.length + 1

/** Page `n` (1-based) as a key range: after the previous page's last key, through its own (the last page: open). */
function range<K> ({ ends }: Boundaries<K>, n: number): { after: K | null, through: K | null } {
  return { after: n === 1 ? null : ends[n - 2], through: n > ends.length ? null : ends[n - 1] }
}

const urlEntry = (loc: string, lastmod: Date) => `<url><loc>${escapeXml(loc)}</loc><lastmod>${lastmod.toISOString()}</lastmod></url>\n`

/** URLs a document may still hold: shared by its parts, so one document never exceeds the page size. */
interface Budget { left: number }

export function createSitemapService (fastify: FastifyInstance) {
  const { sitemapRepository: repo, cache, log } = fastify
  const { publicUrl, apiPublicUrl } = fastify.config

  async function layout (size: number): Promise<Layout> {
    const key = `sitemap-layout:${size}`
    const cached = await tryCache(log, async () => await cache.get<Layout>(key))
    if (cached != null) return cached
    const [recipes, users] = await Promise.all([repo.recipeBoundaries(fastify.db, size), repo.authorBoundaries(fastify.db, size)])
    await tryCache(log, async () => await cache.set(key, { recipes, users }, LAYOUT_TTL_SECONDS))
    return { recipes, users }
  }

  async function * recipeEntries (after: RecipeKey | null, through: RecipeKey | null, budget: Budget): AsyncGenerator<string> {
    while (budget.left > 0) {
      const want = Math.min(BATCH, budget.left)
      const rows = await repo.recipes(fastify.db, after, through, want)
      budget.left -= rows.length
      if (rows.length > 0) yield rows.map(row => urlEntry(`${publicUrl}/recipes/${encodeURIComponent(row.id)}`, row.updatedAt)).join('')
      if (rows.length < want) return
      after = rows[rows.length - 1].key
    }
  }

  async function * userEntries (after: string | null, through: string | null, budget: Budget): AsyncGenerator<string> {
    while (budget.left > 0) {
      const want = Math.min(BATCH, budget.left)
      const rows = await repo.authors(fastify.db, after, through, want)
      const shown = rows.filter(row => row.shown)
      budget.left -= shown.length
      if (shown.length > 0) yield shown.map(row => urlEntry(`${publicUrl}/users/${encodeURIComponent(row.username)}`, row.lastmod)).join('')
      if (rows.length < want) return
      after = rows[rows.length - 1].id
    }
  }

  async function * urlset (size: number, ...parts: Array<(budget: Budget) => AsyncGenerator<string>>): AsyncGenerator<string> {
    yield `${XML_DECLARATION}<urlset xmlns="${NAMESPACE}">\n`
    const budget = { left: size }
    for (const part of parts) yield * part(budget)
    yield '</urlset>\n'
  }

  function sitemapIndex (recipePages: number, userPages: number): string {
    const loc = (file: string) => `<sitemap><loc>${escapeXml(`${apiPublicUrl}/sitemaps/${file}`)}</loc></sitemap>\n`
    const files = [
      ...Array.from({ length: recipePages }, (_, i) => loc(`recipes-${i + 1}.xml`)),
      ...Array.from({ length: userPages }, (_, i) => loc(`users-${i + 1}.xml`))
    ]
    return `${XML_DECLARATION}<sitemapindex xmlns="${NAMESPACE}">\n${files.join('')}</sitemapindex>\n`
  }

  const stream = (chunks: AsyncIterable<string> | string[]) => Readable.from(chunks, { objectMode: false })

  const service = {
    /** URLs per sitemap file: the protocol's maximum. Lowered by tests to exercise the index on a few rows. */
    pageSize: SITEMAP_MAX_URLS,

    /** /sitemap.xml: every URL in one `<urlset>` while they fit in a page, else the `<sitemapindex>` of the pages. */
    async root (): Promise<Readable> {
      const size = service.pageSize
      const { recipes, users } = await layout(size)
      if (recipes.total + users.total > size) return stream([sitemapIndex(pageCount(recipes), pageCount(users))])
      return stream(urlset(size, budget => recipeEntries(null, null, budget), budget => userEntries(null, null, budget)))
    },

    /** /sitemaps/<file>: one page of the index (`recipes-<n>.xml`, `users-<n>.xml`); 404 for any other name. */
    async page (file: string): Promise<Readable> {
      const match = PAGE_FILE.exec(file)
      if (match == null) throw new NotFound()
      const size = service.pageSize
      const n = Number(match[2])
      const current = await layout(size)
      if (match[1] === 'recipes') {
        if (n > pageCount(current.recipes)) throw new NotFound()
        const { after, through } = range(current.recipes, n)
        return stream(urlset(size, budget => recipeEntries(after, through, budget)))
      }
      if (n > pageCount(current.users)) throw new NotFound()
      const { after, through } = range(current.users, n)
      return stream(urlset(size, budget => userEntries(after, through, budget)))
    },

    /** robots.txt of the API's host: the web app is open to crawlers, the API and the web proxy are not. */
    robots (): string {
      return ['User-agent: *', 'Allow: /', 'Disallow: /api/', 'Disallow: /bff/', '', `Sitemap: ${apiPublicUrl}/sitemap.xml`, ''].join('\n')
    }
  }
  return service
}

export default fp(async fastify => {
  fastify.decorate('sitemapService', createSitemapService(fastify))
}, { name: 'sitemap-service', dependencies: ['sitemap-repository', 'cache', 'db'] })
