// Every request of the video import: through the safe fetcher (lib/recipe-import/safe-fetch.ts: address checks on
// every hop, the connection pinned to the checked address), to the platform's own hosts only. Redirects are followed
// here, hop by hop, so each hop's host is checked against the platform before anything is sent to it: a short link
// that leads anywhere else is refused (400 `URL not allowed`), not fetched.
//
// The test setting VIDEO_PLATFORM_ORIGINS maps platform hosts to local servers (`www.tiktok.com=http://127.0.0.1:
// 4567`): a URL of a mapped host is requested from that origin with the same path and query, while its logical
// address (the one redirects resolve against and hosts are checked on) stays the platform's. With a mapping set,
// hosts it does not name are not fetched at all, so a test can never reach a real platform. The origins must also be
// in IMPORT_ALLOW_ORIGINS, the one setting that lets the safe fetcher reach loopback.
import { FetchFailed, safeFetch, UrlNotAllowed, type SafeFetchOptions } from '../recipe-import/safe-fetch.js'
import { hostOf, PLATFORM_NAMES, platformOfHost, type Platform } from './links.js'

export const PAGE_MAX_BYTES = 5 * 1024 * 1024
/** One deadline over every hop of a page and its body. */
export const PAGE_TIMEOUT_MS = 15_000
const MAX_HOPS = 5

export interface PlatformFetchOptions {
  /** IMPORT_ALLOW_ORIGINS. */
  allowOrigins?: readonly string[]
  /** VIDEO_PLATFORM_ORIGINS: platform host -> origin (tests). */
  origins?: Readonly<Record<string, string>>
  signal?: AbortSignal
  lookup?: SafeFetchOptions['lookup']
}

export interface Fetched {
  /** The platform address of the answer (after redirects), never the local origin a test maps it to. */
  url: string
  contentType: string
  body: Buffer
}

export interface FileOptions {
  maxBytes: number
  timeoutMs: number
  accept: (contentType: string) => boolean
  headers?: Record<string, string>
}

/** A redirect's target is not one of the platform's hosts (or not reachable in the test setting). */
const refused = (reason: string) => new UrlNotAllowed(`URL not allowed: ${reason}`)

export function createPlatformFetcher (options: PlatformFetchOptions) {
  const origins = options.origins ?? {}
  const mapped = Object.keys(origins).length > 0

  /**
   * Where a request for the platform address `url` goes: the address itself, or under the test setting the mapped
   * origin. Throws UrlNotAllowed for a host that is not `platform`'s (or not mapped while a mapping is set).
   */
  function target (url: URL, platform: Platform): string {
    const host = hostOf(url)
    if (platformOfHost(host) !== platform) throw refused(`${host} is not a ${PLATFORM_NAMES[platform]} host`)
    if (!mapped) return url.href
    const origin = origins[host]
    if (origin == null) throw refused(`${host} is not in VIDEO_PLATFORM_ORIGINS`)
    return `${origin}${url.pathname}${url.search}`
  }

  /** The address to hand to another fetcher (the recipe image copy) for a platform URL, or null when it may not be fetched. */
  function address (value: string | null, platform: Platform): string | null {
    if (value == null || !URL.canParse(value)) return null
    try {
      return target(new URL(value), platform)
    } catch (err) {
      if (err instanceof UrlNotAllowed) return null
      throw err
    }
  }

  /**
   * GETs `url`, following redirects hop by hop within the platform's hosts (at most MAX_HOPS). One deadline covers
   * every hop and the body. Throws UrlNotAllowed and FetchFailed as safeFetch does.
   */
  async function get (url: string, platform: Platform, file: FileOptions): Promise<Fetched> {
    const deadline = Date.now() + file.timeoutMs
    let current: URL
    try {
      current = new URL(url)
    } catch {
      throw refused('not an absolute URL')
    }
    for (let hop = 0; ; hop++) {
      const left = deadline - Date.now()
      if (left <= 0) throw new FetchFailed(`timed out after ${file.timeoutMs} ms`)
      const response = await safeFetch(target(current, platform), {
        allowOrigins: options.allowOrigins,
        signal: options.signal,
        lookup: options.lookup,
        timeoutMs: left,
        maxBytes: file.maxBytes,
        accept: file.accept,
        headers: file.headers,
        followRedirects: false
      })
      if (response.status < 300 || response.status > 399) return { url: current.href, contentType: response.contentType, body: response.body }
      if (hop >= MAX_HOPS) throw new FetchFailed(`too many redirects (more than ${MAX_HOPS})`)
      let next: URL
      try {
        next = new URL(response.headers.location ?? '', current)
      } catch {
        throw refused('invalid redirect location')
      }
      if (next.protocol !== 'https:' && next.protocol !== 'http:') throw refused(`redirect to scheme ${next.protocol}`)
      current = next
    }
  }

  const HTML = (type: string) => type === 'text/html' || type === 'application/xhtml+xml'

  return {
    target,
    address,
    get,
    /** A post's page (HTML, at most PAGE_MAX_BYTES, PAGE_TIMEOUT_MS over every hop). */
    async page (url: string, platform: Platform): Promise<{ url: string, html: string }> {
      const fetched = await get(url, platform, { maxBytes: PAGE_MAX_BYTES, timeoutMs: PAGE_TIMEOUT_MS, accept: HTML })
      return { url: fetched.url, html: fetched.body.toString('utf8') }
    }
  }
}

export type PlatformFetcher = ReturnType<typeof createPlatformFetcher>
