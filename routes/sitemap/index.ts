// /sitemap.xml, its pages under /sitemaps/ and /robots.txt, at the root of the API's host (outside /api: no auth,
// no API rate limits, as static files are). Crawlers may cache every answer for an hour.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorRef, ref } from '../../schemas/common.js'
import { RobotsTxt, SITEMAP_MAX_URLS, SitemapPageParams, SitemapXml } from '../../schemas/sitemap.js'

/** Served at the root, not under /sitemap (the folder's prefix). */
export const prefixOverride = ''

const XML = 'application/xml; charset=utf-8'
const CACHE = 'public, max-age=3600'
const xmlResponse = (description: string) => ({ description, content: { 'application/xml': { schema: ref(SitemapXml) } } })

const sitemap: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.sitemapService

  fastify.get('/sitemap.xml', {
    schema: {
      tags: ['Sitemap'],
      operationId: 'sitemap.index',
      summary: 'The sitemap of the web app: listed recipes and their authors\' profiles',
      description: 'Recipes anyone may list (published, public, not hidden by moderation, author active and not banned) ' +
        'as `<publicUrl>/recipes/<id>`, and the profiles of active, unbanned users with at least one such recipe as ' +
        `\`<publicUrl>/users/<username>\`, each with its lastmod. Up to ${SITEMAP_MAX_URLS} URLs this is one ` +
        '`<urlset>`; beyond, a `<sitemapindex>` of GET /sitemaps/{file} pages of at most that many URLs each.',
      response: { 200: xmlResponse('A `<urlset>`, or a `<sitemapindex>` past the page size') }
    }
  }, async (_request, reply) => await reply.type(XML).header('cache-control', CACHE).send(await service.root()))

  fastify.get('/sitemaps/:file', {
    schema: {
      tags: ['Sitemap'],
      operationId: 'sitemap.page',
      summary: 'One page of the sitemap index',
      description: `At most ${SITEMAP_MAX_URLS} URLs. A name the index does not list is 404.`,
      params: SitemapPageParams,
      response: { 200: xmlResponse('A `<urlset>`'), 404: ErrorRef }
    }
  }, async (request, reply) => await reply.type(XML).header('cache-control', CACHE).send(await service.page(request.params.file)))

  fastify.get('/robots.txt', {
    schema: {
      tags: ['Sitemap'],
      operationId: 'sitemap.robots',
      summary: 'robots.txt: crawlers may fetch the site but not /api/ or /bff/; names the sitemap',
      response: { 200: { description: 'The rules', content: { 'text/plain': { schema: ref(RobotsTxt) } } } }
    }
  }, async (_request, reply) => await reply.type('text/plain; charset=utf-8').header('cache-control', CACHE).send(service.robots()))
}

export default sitemap
