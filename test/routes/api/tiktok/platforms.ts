// One loopback server per test file that plays TikTok, YouTube and Instagram for the video import tests: the app is
// built with VIDEO_PLATFORM_ORIGINS mapping each platform host the fixtures use to it (and IMPORT_ALLOW_ORIGINS
// allowing its origin), so a request for https://www.tiktok.com/@chef/video/1 arrives here as GET /@chef/video/1.
// Each test serves its own paths; every request is recorded (path and query, the mapped host is not visible).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import tap, { type Test } from 'tap'

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
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => { res.writeHead(404).end() }
  const server = createServer((req, res) => { handler(req, res) })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  tap.teardown(async () => {
    server.closeAllConnections()
    await new Promise(resolve => server.close(resolve))
  })
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    env: {
      IMPORT_ALLOW_ORIGINS: origin,
      VIDEO_PLATFORM_ORIGINS: PLATFORM_HOSTS.map(host => `${host}=${origin}`).join(',')
    },
    serve: (t, routes) => {
      const hits: string[] = []
      const next = (req: IncomingMessage, res: ServerResponse) => {
        const url = req.url ?? ''
        hits.push(url)
        const route = routes[url] ?? routes[url.split('?')[0]]
        if (route == null) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
        else route(res, req)
      }
      handler = next
      t.teardown(() => {
        if (handler === next) handler = (_req, res) => { res.writeHead(404).end() }
        server.closeAllConnections()
      })
      return hits
    }
  }
}
