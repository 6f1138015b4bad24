// Which links the video import takes (decisions.md "Video import"), which hosts it may fetch, and the one canonical
// address of a post (the recipe's `sourceUrl`, so duplicates and repeats are found whatever form the link came in).
//
//   TikTok     www.tiktok.com/@user/video/<id>, m.tiktok.com/v/<id>.html; short links vm.tiktok.com/<code>,
//              vt.tiktok.com/<code>, www.tiktok.com/t/<code> (followed hop by hop, lib/video-import/fetch.ts)
//   YouTube    www.youtube.com/shorts/<id>, www.youtube.com/watch?v=<id>, youtu.be/<id>
//   Instagram  www.instagram.com/reel/<code>/, /reels/<code>/, /p/<code>/, /tv/<code>/ (also under /<user>/)
import { exactOrigin } from '../recipe-import/allowed-origins.js'

export const PLATFORMS = ['tiktok', 'youtube', 'instagram'] as const
export type Platform = typeof PLATFORMS[number]

export const PLATFORM_NAMES: Readonly<Record<Platform, string>> = { tiktok: 'TikTok', youtube: 'YouTube', instagram: 'Instagram' }

/**
 * The hosts each platform serves from (each domain and its subdomains): pages, short links, thumbnails, subtitles and
 * media. Nothing else is fetched by the video import, on any hop.
 */
const PLATFORM_DOMAINS: Readonly<Record<Platform, readonly string[]>> = {
  tiktok: ['tiktok.com', 'tiktokcdn.com', 'tiktokcdn-us.com', 'tiktokv.com', 'tiktokv.us'],
  youtube: ['youtube.com', 'youtu.be', 'ytimg.com', 'googlevideo.com', 'youtube-nocookie.com'],
  instagram: ['instagram.com', 'cdninstagram.com', 'fbcdn.net']
}

export interface VideoLink {
  platform: Platform
  /** The post's id (TikTok digits, YouTube's 11 characters, Instagram's shortcode); null for a short link. */
  id: string | null
  /** TikTok: the handle in the link, without `@`. */
  handle: string | null
  /** A short link: its post is known only once it is followed (or from a captured page). */
  short: boolean
  /** The page to read: https on the platform's own host. */
  pageUrl: string
}

const TIKTOK_ID = /^\d{5,25}$/
const TIKTOK_HANDLE = /^[A-Za-z0-9._-]{1,64}$/
const SHORT_CODE = /^[A-Za-z0-9_-]{3,40}$/
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/
const INSTAGRAM_CODE = /^[A-Za-z0-9_-]{5,64}$/
const INSTAGRAM_KINDS = new Set(['reel', 'reels', 'p', 'tv'])

/** A host name as compared here: lower case, without a trailing dot or IPv6 brackets. */
export const hostOf = (url: URL): string => url.hostname.toLowerCase().replace(/\.$/, '')

/** The platform whose hosts include `host`, or null. */
export function platformOfHost (host: string): Platform | null {
  const name = host.toLowerCase().replace(/\.$/, '')
  for (const platform of PLATFORMS) {
    if (PLATFORM_DOMAINS[platform].some(domain => name === domain || name.endsWith(`.${domain}`))) return platform
  }
  return null
}

/** The path's segments, without empty ones (a trailing slash, doubled slashes). */
const segments = (url: URL): string[] => url.pathname.split('/').filter(part => part !== '').slice(0, 8)

function tiktok (url: URL, host: string, parts: string[]): VideoLink | null {
  if (host === 'vm.tiktok.com' || host === 'vt.tiktok.com') {
    if (parts.length !== 1 || !SHORT_CODE.test(parts[0])) return null
    return { platform: 'tiktok', id: null, handle: null, short: true, pageUrl: `https://${host}/${parts[0]}/` }
  }
  if (host !== 'tiktok.com' && host !== 'www.tiktok.com' && host !== 'm.tiktok.com') return null
  if (parts.length === 2 && parts[0] === 't' && SHORT_CODE.test(parts[1])) {
    return { platform: 'tiktok', id: null, handle: null, short: true, pageUrl: `https://www.tiktok.com/t/${parts[1]}/` }
  }
  let handle: string | null = null
  let id: string | null = null
  if (parts.length === 3 && parts[0].startsWith('@') && parts[1] === 'video') {
    handle = parts[0].slice(1)
    id = parts[2]
    if (!TIKTOK_HANDLE.test(handle)) return null
  } else if (parts.length === 2 && parts[0] === 'v' && parts[1].endsWith('.html')) {
    id = parts[1].slice(0, -'.html'.length)
  }
  if (id == null || !TIKTOK_ID.test(id)) return null
  return { platform: 'tiktok', id, handle, short: false, pageUrl: `https://www.tiktok.com/@${handle ?? ''}/video/${id}` }
}

function youtube (url: URL, host: string, parts: string[]): VideoLink | null {
  let id: string | null = null
  let shorts = false
  if (host === 'youtu.be') {
    if (parts.length === 1) id = parts[0]
  } else if (host === 'youtube.com' || host === 'www.youtube.com' || host === 'm.youtube.com') {
    if (parts.length === 2 && parts[0] === 'shorts') {
      id = parts[1]
      shorts = true
    } else if (parts.length === 1 && parts[0] === 'watch') {
      id = url.searchParams.get('v')
    }
  }
  if (id == null || !YOUTUBE_ID.test(id)) return null
  return {
    platform: 'youtube',
    id,
    handle: null,
    short: false,
    pageUrl: shorts ? `https://www.youtube.com/shorts/${id}` : `https://www.youtube.com/watch?v=${id}`
  }
}

function instagram (_url: URL, host: string, parts: string[]): VideoLink | null {
  if (host !== 'instagram.com' && host !== 'www.instagram.com') return null
  // /reel/<code>/ or /<user>/reel/<code>/
  const at = parts.length === 2 ? 0 : parts.length === 3 ? 1 : -1
  if (at < 0 || !INSTAGRAM_KINDS.has(parts[at]) || !INSTAGRAM_CODE.test(parts[at + 1])) return null
  const kind = parts[at] === 'p' ? 'p' : parts[at] === 'tv' ? 'tv' : 'reel'
  return { platform: 'instagram', id: parts[at + 1], handle: null, short: false, pageUrl: `https://www.instagram.com/${kind}/${parts[at + 1]}/` }
}

/** The video post a link names, or null when it is not one of the forms above (any other URL: 400). */
export function parseVideoLink (value: string): VideoLink | null {
  if (value.length > 2000) return null
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    return null
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '' || url.port !== '') return null
  const host = hostOf(url)
  const parts = segments(url)
  return tiktok(url, host, parts) ?? youtube(url, host, parts) ?? instagram(url, host, parts)
}

/**
 * The post's address as the recipe keeps it (`sourceUrl`), one form per post: TikTok with the author's handle (lower
 * case) where known, YouTube as youtu.be (Shorts and watch links alike), Instagram as /p/ (reels open there too).
 */
export function canonicalUrl (platform: Platform, id: string, handle: string | null): string {
  switch (platform) {
    case 'tiktok': return `https://www.tiktok.com/@${(handle ?? '').toLowerCase()}/video/${id}`
    case 'youtube': return `https://youtu.be/${id}`
    case 'instagram': return `https://www.instagram.com/p/${id}/`
  }
}

/** Whether `id` has the form of a post id of `platform` (ids read from a page are checked before they are used). */
export function validPostId (platform: Platform, id: string | null | undefined): id is string {
  if (typeof id !== 'string') return false
  return (platform === 'tiktok' ? TIKTOK_ID : platform === 'youtube' ? YOUTUBE_ID : INSTAGRAM_CODE).test(id)
}

export const validHandle = (handle: string | null | undefined): handle is string => typeof handle === 'string' && TIKTOK_HANDLE.test(handle)

/**
 * VIDEO_PLATFORM_ORIGINS (tests only): `host=origin` pairs, comma-separated. Each host must be a platform host and each
 * origin exactly one (`http://127.0.0.1:4567`). Returns the mapping, or what is wrong with the setting.
 */
export function parsePlatformOrigins (raw: string): Record<string, string> | string {
  const mapping: Record<string, string> = {}
  for (const entry of raw.split(',').map(part => part.trim()).filter(part => part !== '')) {
    const eq = entry.indexOf('=')
    const host = eq < 0 ? '' : entry.slice(0, eq).trim().toLowerCase()
    const origin = eq < 0 ? null : exactOrigin(entry.slice(eq + 1).trim())
    if (!/^[a-z0-9.-]{1,253}$/.test(host) || platformOfHost(host) == null) return `entry "${entry}": not a video platform host`
    if (origin == null) return `entry "${entry}": not host=scheme://host:port`
    mapping[host] = origin
  }
  return mapping
}
