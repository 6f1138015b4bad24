// A video post read out of its page: the platform's embedded state first (TikTok's rehydration JSON or its older
// SIGI_STATE, YouTube's ytInitialPlayerResponse), the page's OpenGraph meta tags as the fallback. What comes back is
// bounded (caption, title, names, at most a few subtitle tracks) and holds only http(s) addresses.
//
// A post the page says is unavailable (removed, private, blocked in the region), or a page with no post data at all,
// is `{ ok: false, reason }`: the import answers 422 `No recipe found` with that reason. Text from the page goes through
// the body sanitizer (lib/sanitize.ts) as a client's text would: it reaches previews and recipes.
import { sanitizeString } from '../sanitize.js'
import { assignedObject, pageMeta, scriptById } from './html.js'
import { PLATFORM_NAMES, validHandle, validPostId, type Platform } from './links.js'

export const POST_LIMITS = {
  caption: 10_000,
  title: 300,
  name: 100,
  subtitleTracks: 10,
  url: 2000
} as const

export interface SubtitleTrack {
  url: string
  /** As the platform names it: `eng-US` (TikTok), `en` (YouTube). */
  language: string | null
  /** YouTube: the track is speech recognition, not written by the uploader. */
  generated: boolean
}

export interface VideoPost {
  platform: Platform
  /** The post's id as the page gives it (checked against the platform's id form), or null. */
  id: string | null
  /** TikTok and Instagram: the author's handle, without `@`. */
  handle: string | null
  /** The author's display name (YouTube: the channel). */
  authorName: string | null
  /** YouTube's title; the others have none (the caption is all). */
  title: string | null
  caption: string
  thumbnailUrl: string | null
  durationSeconds: number | null
  /** In order of preference: English first, written before generated. */
  subtitles: SubtitleTrack[]
  /** Audio (or the video, whose sound a transcription reads) the page links, for AI_TRANSCRIBE. */
  audioUrl: string | null
  /** How the post was read: `rehydration`, `sigi-state`, `player-response`, `meta`. */
  source: string
}

export type PageRead = { ok: true, post: VideoPost } | { ok: false, reason: string }

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => value != null && typeof value === 'object' && !Array.isArray(value)
const objectAt = (value: unknown, ...path: string[]): Json | null => {
  let current: unknown = value
  for (const key of path) {
    if (!isObject(current)) return null
    current = current[key]
  }
  return isObject(current) ? current : null
}
const stringOf = (value: unknown, max: number): string | null => {
  if (typeof value !== 'string') return null
  const text = sanitizeString(value.slice(0, max * 2).replaceAll('\u0000', '')).trim().slice(0, max).trim().toWellFormed()
  return text === '' ? null : text
}
const captionOf = (value: unknown): string => typeof value === 'string'
  ? sanitizeString(value.slice(0, POST_LIMITS.caption).replace(/\r\n?/g, '\n').replaceAll('\u0000', '')).trim().toWellFormed()
  : ''
/** An absolute http(s) address of at most 2000 characters, or null. */
const urlOf = (value: unknown): string | null => {
  if (typeof value !== 'string' || value.length > POST_LIMITS.url || !/^https?:\/\//i.test(value)) return null
  return URL.canParse(value) ? value : null
}
const secondsOf = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,7}$/.test(value) ? Number(value) : NaN
  return Number.isFinite(n) && n >= 0 && n <= 100 * 3600 ? Math.round(n) : null
}
const parseJson = (text: string | null): unknown => {
  if (text == null) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The first elements of a list that may be anything. */
const listOf = (value: unknown, max: number): unknown[] => Array.isArray(value) ? value.slice(0, max) : []

// ---- TikTok ----

/** TikTok's status codes of an item that cannot be shown, as the reason given to the caller. */
const TIKTOK_STATUS: Readonly<Record<number, string>> = {
  10204: 'the video was removed or does not exist',
  10216: 'the video is private',
  10222: 'the account is private'
}

const tiktokUnavailable = (statusCode: unknown, statusMsg: unknown): string => {
  const known = typeof statusCode === 'number' ? TIKTOK_STATUS[statusCode] : undefined
  const said = stringOf(statusMsg, 200)
  return `TikTok: ${known ?? said ?? `the post is not available (status ${String(statusCode)})`}`
}

function tiktokSubtitles (video: Json | null): SubtitleTrack[] {
  const tracks: SubtitleTrack[] = []
  for (const info of listOf(video?.subtitleInfos, 50)) {
    if (!isObject(info)) continue
    const url = urlOf(info.Url)
    const format = typeof info.Format === 'string' ? info.Format.toLowerCase() : 'webvtt'
    if (url == null || format !== 'webvtt') continue
    tracks.push({ url, language: stringOf(info.LanguageCodeName, 20), generated: info.Source === 'ASR' || info.Source === 'MT' })
  }
  return preferred(tracks)
}

/** An item of either shape (rehydration `itemStruct`, SIGI_STATE `ItemModule` entry) as a post. */
function tiktokItem (item: Json, users: Json | null, source: string): VideoPost {
  const video = objectAt(item, 'video')
  const music = objectAt(item, 'music')
  // `author` is an object in the rehydration data and the handle (with `nickname` beside it) in SIGI_STATE.
  const author = isObject(item.author) ? item.author : null
  const handle = author != null ? author.uniqueId : item.author
  const user = typeof handle === 'string' ? objectAt(users, handle) : null
  const name = author?.nickname ?? item.nickname ?? user?.nickname
  return {
    platform: 'tiktok',
    id: validPostId('tiktok', item.id as string) ? item.id as string : null,
    handle: validHandle(handle as string) ? handle as string : null,
    authorName: stringOf(name, POST_LIMITS.name),
    title: null,
    caption: captionOf(item.desc),
    thumbnailUrl: urlOf(video?.cover) ?? urlOf(video?.originCover) ?? urlOf(video?.dynamicCover),
    durationSeconds: secondsOf(video?.duration),
    subtitles: tiktokSubtitles(video),
    // An original sound is the video's own audio (small); otherwise the video itself carries the speech.
    audioUrl: (music?.original === true ? urlOf(music.playUrl) : null) ?? urlOf(video?.playAddr) ?? urlOf(video?.downloadAddr),
    source
  }
}

function readTikTok (html: string, postId: string | null): PageRead | null {
  const universal = parseJson(scriptById(html, '__UNIVERSAL_DATA_FOR_REHYDRATION__'))
  if (universal !== undefined) {
    const detail = objectAt(universal, '__DEFAULT_SCOPE__', 'webapp.video-detail')
    const item = objectAt(detail, 'itemInfo', 'itemStruct')
    if (detail != null && detail.statusCode != null && detail.statusCode !== 0 && detail.statusCode !== '0') {
      return { ok: false, reason: tiktokUnavailable(detail.statusCode, detail.statusMsg) }
    }
    if (item == null) return { ok: false, reason: 'TikTok: the page holds no post (it may be private, removed or blocked in this region)' }
    if (item.privateItem === true) return { ok: false, reason: `TikTok: ${TIKTOK_STATUS[10216]}` }
    return { ok: true, post: tiktokItem(item, null, 'rehydration') }
  }
  const sigi = parseJson(scriptById(html, 'SIGI_STATE'))
  if (sigi !== undefined) {
    const items = objectAt(sigi, 'ItemModule')
    const users = objectAt(sigi, 'UserModule', 'users')
    const chosen = postId != null ? objectAt(items, postId) : null
    // Without the link's id (a short link with a captured page), the module's first item.
    const item = chosen ?? (items == null ? null : Object.values(items).find(isObject) ?? null)
    if (item == null) return { ok: false, reason: 'TikTok: the page holds no post (it may be private, removed or blocked in this region)' }
    return { ok: true, post: tiktokItem(item, users, 'sigi-state') }
  }
  return null
}

// ---- YouTube ----

function youtubeSubtitles (response: unknown): SubtitleTrack[] {
  const tracks: SubtitleTrack[] = []
  for (const track of listOf(objectAt(response, 'captions', 'playerCaptionsTracklistRenderer')?.captionTracks, 50)) {
    if (!isObject(track)) continue
    const base = urlOf(track.baseUrl)
    if (base == null) continue
    // WebVTT, whatever format the page's own player asks for.
    const url = new URL(base)
    url.searchParams.set('fmt', 'vtt')
    tracks.push({ url: url.href, language: stringOf(track.languageCode, 20), generated: track.kind === 'asr' })
  }
  return preferred(tracks)
}

function largestThumbnail (value: unknown): string | null {
  let best: string | null = null
  let bestWidth = -1
  for (const thumb of listOf(value, 50)) {
    if (!isObject(thumb)) continue
    const url = urlOf(thumb.url)
    const width = typeof thumb.width === 'number' ? thumb.width : 0
    if (url != null && width > bestWidth) {
      best = url
      bestWidth = width
    }
  }
  return best
}

function youtubeAudio (response: unknown): string | null {
  for (const format of listOf(objectAt(response, 'streamingData')?.adaptiveFormats, 100)) {
    if (isObject(format) && typeof format.mimeType === 'string' && format.mimeType.startsWith('audio/')) {
      const url = urlOf(format.url)
      if (url != null) return url
    }
  }
  return null
}

function readYouTube (html: string): PageRead | null {
  const response = parseJson(assignedObject(html, 'ytInitialPlayerResponse'))
  if (!isObject(response)) return null
  const status = objectAt(response, 'playabilityStatus')
  if (status != null && typeof status.status === 'string' && status.status !== 'OK') {
    const reason = stringOf(status.reason, 200) ?? stringOf(objectAt(status, 'errorScreen', 'playerErrorMessageRenderer', 'reason')?.simpleText, 200)
    return { ok: false, reason: `YouTube: ${reason ?? `the video is not available (${stringOf(status.status, 40) ?? 'unknown'})`}` }
  }
  const details = objectAt(response, 'videoDetails')
  if (details == null) return { ok: false, reason: 'YouTube: the page holds no video details' }
  return {
    ok: true,
    post: {
      platform: 'youtube',
      id: validPostId('youtube', details.videoId as string) ? details.videoId as string : null,
      handle: null,
      authorName: stringOf(details.author, POST_LIMITS.name),
      title: stringOf(details.title, POST_LIMITS.title),
      caption: captionOf(details.shortDescription),
      thumbnailUrl: largestThumbnail(objectAt(details, 'thumbnail')?.thumbnails),
      durationSeconds: secondsOf(details.lengthSeconds),
      subtitles: youtubeSubtitles(response),
      audioUrl: youtubeAudio(response),
      source: 'player-response'
    }
  }
}

// ---- OpenGraph (every platform's fallback) ----

/**
 * Instagram's og:description wraps the caption: `12 likes, 3 comments - chef.jo on March 3, 2024: "Caption"`; its
 * og:title is `Chef Jo on Instagram: "Caption"`. Read on bounded text with anchored patterns.
 */
const INSTAGRAM_DESCRIPTION = /^[\d.,\s]*[KkMm]?\s*likes?,\s*[\d.,\s]*[KkMm]?\s*comments?\s*-\s*([A-Za-z0-9._]{1,64})\s+on\s+[^:"]{1,60}:\s*"/u
const INSTAGRAM_TITLE = /^(.{1,100}?) on Instagram\b/u

function readMeta (html: string, platform: Platform): PageRead {
  const { meta, title: pageTitle } = pageMeta(html)
  const get = (...keys: string[]) => keys.map(key => meta.get(key)).find(value => value != null && value.trim() !== '') ?? null
  let caption = get('og:description', 'twitter:description', 'description')
  const ogTitle = get('og:title', 'twitter:title')
  if (caption == null && ogTitle == null) {
    return { ok: false, reason: `${PLATFORM_NAMES[platform]}: the page holds no post (it may be private, removed or blocked in this region)` }
  }
  let handle: string | null = null
  let authorName: string | null = null
  if (platform === 'instagram' && caption != null) {
    const head = caption.slice(0, 300)
    const m = INSTAGRAM_DESCRIPTION.exec(head)
    if (m != null) {
      handle = m[1]
      const body = caption.slice(m[0].length).trimEnd()
      caption = body.endsWith('.') && body.slice(0, -1).endsWith('"') ? body.slice(0, -2) : body.endsWith('"') ? body.slice(0, -1) : body
    }
    const t = ogTitle == null ? null : INSTAGRAM_TITLE.exec(ogTitle.slice(0, 200))
    if (t != null) authorName = t[1]
  }
  return {
    ok: true,
    post: {
      platform,
      id: null,
      handle: validHandle(handle) ? handle : null,
      authorName: stringOf(authorName ?? get('og:video:director', 'author'), POST_LIMITS.name),
      title: platform === 'youtube' ? stringOf(ogTitle ?? pageTitle, POST_LIMITS.title) : null,
      caption: captionOf(caption ?? ''),
      thumbnailUrl: urlOf(get('og:image', 'og:image:secure_url', 'twitter:image')),
      durationSeconds: secondsOf(get('og:video:duration', 'video:duration')),
      subtitles: [],
      audioUrl: urlOf(get('og:video:secure_url', 'og:video', 'og:video:url')),
      source: 'meta'
    }
  }
}

/** English tracks first, then the uploader's before generated ones; at most POST_LIMITS.subtitleTracks. */
function preferred (tracks: SubtitleTrack[]): SubtitleTrack[] {
  const rank = (track: SubtitleTrack) => (/^en/i.test(track.language ?? '') ? 0 : 2) + (track.generated ? 1 : 0)
  return tracks.map((track, i) => ({ track, i })).sort((a, b) => rank(a.track) - rank(b.track) || a.i - b.i)
    .map(({ track }) => track).slice(0, POST_LIMITS.subtitleTracks)
}

/**
 * The post a platform's page shows. `postId`: the id the link named (TikTok's SIGI_STATE lists items by id). Text in
 * meta tags arrives entity-decoded; captions from JSON are as the platform wrote them.
 */
export function readVideoPage (html: string, platform: Platform, postId: string | null = null): PageRead {
  const embedded = platform === 'tiktok' ? readTikTok(html, postId) : platform === 'youtube' ? readYouTube(html) : null
  return embedded ?? readMeta(html, platform)
}
