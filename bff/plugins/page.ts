// The proxy's own small browser page at `/`: sign in, the signed-in user, recipes (list, create, like), refresh, sign
// out, all through /bff/auth and /bff/api. Two static files, no build step, read once at start-up from bff/public
// (found beside this module, so `dist/bff/public` after `npm run build`, which copies the folder).
import { readFile } from 'node:fs/promises'
import type { FastifyInstance } from 'fastify'

/** No inline script or style anywhere in the page, so nothing looser is needed. */
export const PAGE_CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

export const PAGE_FILES = [
  { url: '/', file: 'index.html', type: 'text/html; charset=utf-8' },
  { url: '/app.js', file: 'app.js', type: 'text/javascript; charset=utf-8' }
] as const

export const PUBLIC_DIR = new URL('../public/', import.meta.url)

export default async function page (fastify: FastifyInstance): Promise<void> {
  for (const { url, file, type } of PAGE_FILES) {
    // A missing file is a broken build: fail at start-up, not on the first visit.
    const body = await readFile(new URL(file, PUBLIC_DIR))
    // Untagged: not in the proxy's OpenAPI document. A GET, so the origin check lets it through.
    fastify.get(url, async (_request, reply) => await reply
      .type(type)
      .header('content-security-policy', PAGE_CSP)
      .header('cache-control', 'no-cache')
      .send(body))
  }
}
