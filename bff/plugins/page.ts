// The proxy's own browser app: index.html at `/` and at the app's other paths (links in emails point at
// /reset-password, /recipes/<id>, /notifications...), its entry module /app.js, and the modules and stylesheet of
// bff/public/assets at /assets/<name>. No build step: the files are read once at start-up from bff/public (found beside
// this module, so `dist/bff/public` after `npm run build`, which copies the folder).
import { readdir, readFile } from 'node:fs/promises'
import type { FastifyInstance, FastifyReply } from 'fastify'

/** No inline script or style anywhere in the page, so nothing looser is needed. */
export const PAGE_CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

export const PAGE_FILES = [
  { url: '/', file: 'index.html', type: 'text/html; charset=utf-8' },
  { url: '/app.js', file: 'app.js', type: 'text/javascript; charset=utf-8' }
] as const

/** The app's own paths (history routing): each serves index.html, whose script shows the matching screen. */
export const APP_PATHS = ['/signin', '/register', '/forgot-password', '/reset-password', '/recipes/new', '/recipes/:id',
  '/recipes/:id/edit', '/import', '/collections', '/collections/:id', '/feed', '/notifications', '/plan', '/plan/:id',
  '/grocery/:id', '/settings', '/users/:username'] as const

export const PUBLIC_DIR = new URL('../public/', import.meta.url)
export const ASSETS_DIR = new URL('assets/', PUBLIC_DIR)

const ASSET_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' }
const ASSET_NAME = /^[a-z0-9-]+(\.js|\.css)$/

export default async function page (fastify: FastifyInstance): Promise<void> {
  const send = (body: Buffer, type: string) => async (_request: unknown, reply: FastifyReply) => await reply
    .type(type)
    .header('content-security-policy', PAGE_CSP)
    .header('cache-control', 'no-cache')
    .send(body)
  for (const { url, file, type } of PAGE_FILES) {
    // A missing file is a broken build: fail at start-up, not on the first visit.
    const body = await readFile(new URL(file, PUBLIC_DIR))
    // Untagged: not in the proxy's OpenAPI document. A GET, so the origin check lets it through.
    fastify.get(url, send(body, type))
    if (file === 'index.html') for (const path of APP_PATHS) fastify.get(path, send(body, type))
  }
  // The assets: a fixed set of files, listed once; a request names one of them or is a 404 (no path is ever joined).
  const assets = new Map<string, { body: Buffer, type: string }>()
  for (const name of (await readdir(ASSETS_DIR)).filter(name => ASSET_NAME.test(name))) {
    assets.set(name, { body: await readFile(new URL(name, ASSETS_DIR)), type: ASSET_TYPES[name.slice(name.lastIndexOf('.'))] })
  }
  fastify.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
    const asset = assets.get(request.params.name)
    if (asset == null) return await reply.callNotFound()
    return await send(asset.body, asset.type)(request, reply)
  })
}
