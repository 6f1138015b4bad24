// Video recipe import (/api/tiktok, decisions.md "Video import"): a TikTok, YouTube or Instagram post becomes a
// preview or a recipe. It shares the page import's gate, log, duplicates and creation (recipeImportService.shared):
// the same flag, allowance, recipe limit and hourly rate, the same repeat rule (the post's canonical address is the
// creation key) and the same picture handling (the thumbnail is the preview's image, copied at creation).
//
// Reading: the link names a post (lib/video-import/links.ts: any other URL is 400); its page is fetched from the
// platform's hosts only, redirects hop by hop (fetch.ts), or taken from `html`; the page's embedded state gives the
// caption, author, thumbnail, duration, subtitle tracks and audio (page.ts, large pages off the event loop).
// Structuring: with an AI provider, caption + subtitles (+ a transcript when AI_TRANSCRIBE is on and there are no
// subtitles) go to the model, grounded in what the video says; the text importer's reading of the caption is the
// fallback and the only path without a provider.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { ModelRefusal, newStats, UnusableRecipe } from '../../../lib/ai/generate.js'
import { AiProviderError, createChatClient, DEFAULT_MAX_RESPONSE_BYTES } from '../../../lib/ai/provider.js'
import { createReplyReader } from '../../../lib/ai/reply-reader.js'
import { ImportBusy, noRecipeFoundBecause, pageNotFetched, pageReadTimeout, UrlNotAllowed } from '../../../lib/errors.js'
import type { RecipePreview } from '../../../lib/recipe-import/preview.js'
import { FetchFailed, UrlNotAllowed as Refused } from '../../../lib/recipe-import/safe-fetch.js'
import { scope } from '../../../lib/request-scope.js'
import { createPlatformFetcher, type PlatformFetcher } from '../../../lib/video-import/fetch.js'
import { canonicalUrl, parseVideoLink, PLATFORM_NAMES, platformOfHost, type VideoLink } from '../../../lib/video-import/links.js'
import { createPageReader, READ_TIMEOUT_MS, ReaderBusy, ReadTimedOut } from '../../../lib/video-import/page-reader.js'
import type { VideoPost } from '../../../lib/video-import/page.js'
import {
  authorOf, creditLine, modelPreview, splitHashtags, structureWithModel, textRecipe, videoTitle, type VideoWords
} from '../../../lib/video-import/structure.js'
import { AUDIO_MAX_BYTES, transcribe } from '../../../lib/video-import/transcribe.js'
import { SUBTITLE_MAX_BYTES, webVttText } from '../../../lib/video-import/webvtt.js'
import type { VideoInfoValue } from '../../../schemas/video-import.js'

declare module 'fastify' {
  interface FastifyInstance {
    videoImportService: ReturnType<typeof createVideoImportService>
  }
}

/** Subtitle tracks tried at most (the preferred one, then one more if it cannot be read). */
const SUBTITLE_TRACKS_TRIED = 2
const SUBTITLE_TIMEOUT_MS = 10_000
const AUDIO_TIMEOUT_MS = 20_000
const SUBTITLE_TYPES = new Set(['text/vtt', 'text/plain', 'application/octet-stream', 'binary/octet-stream', ''])
const OCTET = new Set(['application/octet-stream', 'binary/octet-stream', ''])
const audioType = (type: string) => type.startsWith('audio/') || type.startsWith('video/') || OCTET.has(type)

interface VideoRead { preview: RecipePreview, video: VideoInfoValue, method: string }

export function createVideoImportService (fastify: FastifyInstance) {
  const shared = fastify.recipeImportService.shared
  const { ai, importAllowOrigins: allowOrigins } = fastify.config
  const { transcribe: transcribeOn, transcribeModel, platformOrigins } = fastify.config.videoImport
  const pages = createPageReader()
  const replies = createReplyReader()
  fastify.addHook('onClose', async () => { await Promise.all([pages.close(), replies.close()]) })

  const fetcherFor = (): PlatformFetcher => createPlatformFetcher({ allowOrigins, origins: platformOrigins, signal: scope.getStore()?.signal })

  /** A page fetch's failures as the API's errors: refused 400, gone 422 (the post does not exist), the rest 502. */
  async function fetchPage (fetcher: PlatformFetcher, link: VideoLink) {
    try {
      return await fetcher.page(link.pageUrl, link.platform)
    } catch (err) {
      if (err instanceof Refused) throw new UrlNotAllowed(err.message.replace(/^URL not allowed:?\s*/, '') || undefined)
      if (err instanceof FetchFailed && (err.status === 404 || err.status === 410)) {
        throw noRecipeFoundBecause(`${PLATFORM_NAMES[link.platform]}: the post does not exist or was removed (${err.status})`)
      }
      if (err instanceof FetchFailed) throw pageNotFetched(err.message)
      throw err
    }
  }

  async function readPost (html: string, link: VideoLink): Promise<VideoPost> {
    let read
    try {
      read = await pages.read(html, link.platform, link.id)
    } catch (err) {
      if (err instanceof ReaderBusy) throw new ImportBusy()
      if (err instanceof ReadTimedOut) throw pageReadTimeout(READ_TIMEOUT_MS / 1000)
      throw err
    }
    if (!read.ok) throw noRecipeFoundBecause(read.reason)
    return read.post
  }

  /** A fetch the import can do without (subtitles, audio): its failure is logged and the import goes on. */
  async function optional<T> (what: string, url: string, work: () => Promise<T>): Promise<T | null> {
    try {
      return await work()
    } catch (err) {
      if (!(err instanceof FetchFailed || err instanceof Refused || err instanceof AiProviderError)) throw err
      fastify.log.info({ url, reason: err.message }, `video ${what} not read`)
      return null
    }
  }

  async function subtitlesOf (fetcher: PlatformFetcher, post: VideoPost): Promise<string | null> {
    for (const track of post.subtitles.slice(0, SUBTITLE_TRACKS_TRIED)) {
      const text = await optional('subtitles', track.url, async () => {
        const file = await fetcher.get(track.url, post.platform, { maxBytes: SUBTITLE_MAX_BYTES, timeoutMs: SUBTITLE_TIMEOUT_MS, accept: type => SUBTITLE_TYPES.has(type) })
        return webVttText(file.body.toString('utf8'))
      })
      if (text != null && text !== '') return text
    }
    return null
  }

  /** AI_TRANSCRIBE: the provider's transcript of the audio the page links, when the post has no subtitles. */
  async function transcriptOf (fetcher: PlatformFetcher, post: VideoPost): Promise<string | null> {
    const audioUrl = post.audioUrl
    if (!transcribeOn || ai.baseUrl == null || audioUrl == null) return null
    const baseUrl = ai.baseUrl
    const text = await optional('audio', audioUrl, async () => {
      const audio = await fetcher.get(audioUrl, post.platform, { maxBytes: AUDIO_MAX_BYTES, timeoutMs: AUDIO_TIMEOUT_MS, accept: audioType })
      return await transcribe(audio.body, audio.contentType, {
        baseUrl, apiKey: ai.apiKey, model: transcribeModel, timeoutMs: ai.timeoutMs, signal: scope.getStore()?.signal
      })
    })
    return text == null || text === '' ? null : text
  }

  /** The model's recipe of the video, or null when it cannot give one (the caller falls back to the text importer). */
  async function byModel (post: VideoPost, words: VideoWords, expected: string[]): Promise<RecipePreview | null> {
    if (ai.baseUrl == null) return null
    const chat = createChatClient({ baseUrl: ai.baseUrl, apiKey: ai.apiKey, model: ai.model, timeoutMs: ai.timeoutMs, maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES, temperature: 0.2 })
    const stats = newStats(ai.model)
    try {
      return modelPreview(await structureWithModel(chat, post, words, { signal: scope.getStore()?.signal, stats, read: replies.read, expected }))
    } catch (err) {
      if (!(err instanceof AiProviderError || err instanceof ModelRefusal || err instanceof UnusableRecipe)) throw err
      const reason = err instanceof UnusableRecipe ? err.details.join('; ') : err instanceof ModelRefusal ? err.reason : err.message
      fastify.log.warn({ platform: post.platform, attempts: stats.attempts, reason }, 'video recipe not structured by the model; the text importer\'s reading is used')
      return null
    }
  }

  /** The post the link names, read and structured: the preview, the video's facts and how it was read. */
  async function readVideo (url: string, html: string | undefined): Promise<VideoRead> {
    const link = parseVideoLink(url)
    if (link == null) throw new UrlNotAllowed('not a TikTok, YouTube or Instagram video link')
    const fetcher = fetcherFor()
    let postLink = link
    let page = html
    if (page == null) {
      const fetched = await fetchPage(fetcher, link)
      page = fetched.html
      // Where the link led names the post (a short link's, or a page that moved).
      postLink = parseVideoLink(fetched.url) ?? link
    }
    const post = await readPost(page, postLink)
    const platform = link.platform
    const id = postLink.id ?? post.id
    const sourceUrl = id != null ? canonicalUrl(platform, id, post.handle ?? postLink.handle) : postLink.pageUrl

    const { text: caption, tags } = splitHashtags(post.caption)
    const subtitles = await subtitlesOf(fetcher, post)
    const transcript = subtitles == null ? await transcriptOf(fetcher, post) : null
    const words: VideoWords = { caption, subtitles, transcript }
    const spokenKind = subtitles != null ? 'subtitles' : transcript != null ? 'transcript' : null
    if (caption === '' && spokenKind == null) throw noRecipeFoundBecause(`${PLATFORM_NAMES[platform]}: the post has no caption or subtitles to read a recipe from`)

    const fromText = textRecipe(words)
    const fromModel = await byModel(post, words, fromText?.captionIngredients === true ? fromText.preview.ingredients.map(i => i.name) : [])
    const base = fromModel ?? fromText?.preview
    if (base == null) {
      throw noRecipeFoundBecause(`${PLATFORM_NAMES[platform]}: no ingredients found in the caption${spokenKind != null ? ` or ${spokenKind}` : ''}`)
    }
    const sources = fromModel != null
      ? ['caption', ...(spokenKind != null ? [spokenKind] : [])]
      : ['caption', ...(fromText?.spoken === true && spokenKind != null ? [spokenKind] : [])]
    const thumbnail = post.thumbnailUrl != null && platformOfHost(new URL(post.thumbnailUrl).hostname) === platform ? post.thumbnailUrl : null
    const title = videoTitle(post, base.title, caption)
    // The text importer takes a caption's opening sentence for a description: not twice, once it is the title.
    const description = [creditLine(post), base.description === title ? null : base.description]
      .filter(part => part != null && part.trim() !== '').join('\n\n')
    const preview: RecipePreview = {
      ...base,
      title,
      description,
      imageUrl: thumbnail,
      author: authorOf(post),
      tags: [...new Set([...base.tags.map(tag => tag.toLowerCase()), ...tags])],
      sourceUrl
    }
    return {
      preview,
      video: {
        platform,
        id,
        url: sourceUrl,
        author: authorOf(post),
        caption: post.caption,
        thumbnailUrl: post.thumbnailUrl,
        durationSeconds: post.durationSeconds
      },
      method: `${platform}:${fromModel != null ? 'ai' : 'text'}:${sources.join('+')}`
    }
  }

  return {
    /** What the post holds, with the caller's recipes from the same post; spends nothing. */
    async preview (userId: string, url: string, html?: string) {
      await shared.gate(userId)
      return await shared.logged(userId, html != null ? 'html' : 'url', 'preview', url, async () => {
        const { preview, video, method } = await readVideo(url, html)
        return { preview, video, duplicates: await shared.duplicates(userId, video.url), method }
      })
    },

    /** The post as a recipe (a draft unless `saveAsDraft` is false); an identical repeat gets the first one's recipe. */
    async import (userId: string, url: string, html: string | undefined, saveAsDraft: boolean) {
      await shared.gate(userId)
      return await shared.logged(userId, html != null ? 'html' : 'url', 'create', url, async () => {
        const { preview, video, method } = await readVideo(url, html)
        // The thumbnail is copied as the page import copies its image; under the test setting from the mapped server.
        const picture = fetcherFor().address(preview.imageUrl, video.platform)
        return await shared.create(userId, { ...preview, imageUrl: picture }, saveAsDraft, shared.pageKey(video.url, saveAsDraft), method)
      })
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('videoImportService', createVideoImportService(fastify))
}, {
  name: 'video-import-service',
  dependencies: ['recipe-import-service']
})
