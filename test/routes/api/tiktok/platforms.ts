// One loopback server per test file that plays TikTok, YouTube and Instagram for the video import tests: the app is
// built with VIDEO_PLATFORM_ORIGINS mapping each platform host the fixtures use to it (and IMPORT_ALLOW_ORIGINS
// allowing its origin), so a request for https://www.tiktok.com/@chef/video/1 arrives here as GET /@chef/video/1.
// Each test serves its own paths; every request is recorded (path and query, the mapped host is not visible).
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Test } from 'tap'
import { importSite } from '../../../helpers/import-site.js'

/** The platform hosts the fixtures name (test/fixtures/video/pages.ts). */
export const PLATFORM_HOSTS = [
  'www.tiktok.com', 'vm.tiktok.com', 'vt.tiktok.com', 'p16-sign-va.tiktokcdn.com', 'v16-webapp.tiktok.com', 'v16-webapp-prime.tiktok.com',
  'www.youtube.com', 'i.ytimg.com', 'rr1---sn-test.googlevideo.com',
  'www.instagram.com', 'scontent.cdninstagram.com'
]

export type Handler = (res: ServerResponse, req: IncomingMessage) => void

export const html = (body: string): Handler => res => { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body) }
export const file = (data: Buffer | string, type: string): Handler => res => {
  res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(data) }).end(data)
}
export const redirect = (location: string, status = 301): Handler => res => { res.writeHead(status, { location }).end() }
export const status = (code: number): Handler => res => { res.writeHead(code, { 'content-type': 'text/html' }).end(`<html><body>${code}</body></html>`) }

export interface PlatformSite {
  origin: string
  /** The settings of an app whose video import reaches this server for every platform host above. */
  env: Record<string, string>
  /** Answers `routes` (by path and query, else by path) until the test ends; returns the requests it receives. */
  serve: (t: Test, routes: Record<string, Handler>) => string[]
}

export async function platformSite (): Promise<PlatformSite> {
  const site = await importSite()
  return {
    origin: site.origin,
    env: { ...site.env, VIDEO_PLATFORM_ORIGINS: PLATFORM_HOSTS.map(host => `${host}=${site.origin}`).join(',') },
    serve: (t, routes) => {
      const hits: string[] = []
      site.use(t, (req, res) => {
        const url = req.url ?? ''
        hits.push(url)
        const route = routes[url] ?? routes[url.split('?')[0]]
        if (route == null) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
        else route(res, req)
      })
      return hits
    }
  }
}
