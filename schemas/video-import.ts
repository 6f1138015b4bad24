// Video recipe import (decisions.md "Video import", /api/tiktok): request bodies and the preview answer. The recipe
// answers are the page import's (ImportedResponse); the preview shape and duplicates are shared with it.
import { Type, type Static } from 'typebox'
import { Nullable, ref } from './common.js'
import { Duplicate, IMPORT_BODY_LIMIT, RecipePreviewSchema } from './recipe-import.js'

const VideoUrl = Type.String({
  minLength: 1,
  maxLength: 2000,
  description: 'A video post: TikTok (`https://www.tiktok.com/@user/video/<id>`, short links `https://vm.tiktok.com/<code>/`, ' +
    '`vt.tiktok.com`), YouTube (`/shorts/<id>`, `/watch?v=<id>`, `youtu.be/<id>`) or Instagram (`/reel/<code>/`, `/p/<code>/`)',
  examples: ['https://www.tiktok.com/@chef.jo/video/7301234567890123456']
})
const CapturedPage = Type.Optional(Type.String({
  maxLength: IMPORT_BODY_LIMIT,
  description: 'The post\'s page as the caller\'s browser captured it (extension, bookmarklet): read instead of fetching `url` ' +
    '(its subtitles may still be fetched from the platform)'
}))
const SaveAsDraft = Type.Optional(Type.Boolean({ default: true, description: 'Save unpublished (default); false publishes it at once' }))

export const VideoPreviewBody = Type.Object({ url: VideoUrl, html: CapturedPage })
export const VideoImportBody = Type.Object({ url: VideoUrl, html: CapturedPage, saveAsDraft: SaveAsDraft })

export const VideoInfo = Type.Object({
  platform: Type.Union([Type.Literal('tiktok'), Type.Literal('youtube'), Type.Literal('instagram')]),
  id: Nullable(Type.String({ maxLength: 100, description: 'The post\'s id on its platform (null when neither link nor page gives it)' })),
  url: Type.String({ maxLength: 2000, description: 'The post\'s canonical address: the recipe\'s `sourceUrl`' }),
  author: Nullable(Type.String({ maxLength: 200, description: '`@handle` (TikTok, Instagram) or the channel\'s name (YouTube)' })),
  caption: Type.String({ maxLength: 10_000, description: 'The caption or description as posted (hashtags included)' }),
  thumbnailUrl: Nullable(Type.String({ maxLength: 2000 })),
  durationSeconds: Nullable(Type.Integer({ minimum: 0 }))
}, { $id: 'VideoInfo', description: 'The video post a recipe was read from' })
export type VideoInfoValue = Static<typeof VideoInfo>

export const VideoPreviewResponse = Type.Object({
  success: Type.Literal(true),
  preview: ref(RecipePreviewSchema),
  duplicates: Type.Array(Duplicate, { description: 'Your recipes from the same post (its canonical address); at most 10' }),
  video: ref(VideoInfo)
}, { description: 'What the post holds; nothing is saved' })
