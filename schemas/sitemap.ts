// The sitemap and robots.txt bodies, documented as text of their media types.
import type { Readable } from 'node:stream'
import { Type } from 'typebox'

/** The sitemaps protocol's limit of URLs in one file (and of files in one index). */
export const SITEMAP_MAX_URLS = 50_000

/** Written to the response as it is read (a stream), so typed as one. */
export const SitemapXml = Type.Unsafe<Readable | string>({
  $id: 'SitemapXml',
  type: 'string',
  description: 'A sitemap (`<urlset>`) or a sitemap index (`<sitemapindex>`) of the sitemaps protocol 0.9, UTF-8'
})

export const RobotsTxt = Type.String({ $id: 'RobotsTxt', description: 'robots.txt rules (text/plain, UTF-8)' })

export const SitemapPageParams = Type.Object({
  file: Type.String({ maxLength: 40, description: '`recipes-<n>.xml` or `users-<n>.xml`, as the sitemap index lists them' })
})
