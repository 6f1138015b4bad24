// Import a recipe from a short-video post (decisions.md "Video import"): TikTok first, YouTube and Instagram links
// through the same routes. Preview it, or import it as a recipe.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { IMPORT_REPEAT_SECONDS } from '../../../plugins/app/services/recipe-import.js'
import { EnvelopeError, ref } from '../../../schemas/common.js'
import { IMPORT_BODY_LIMIT, ImportedResponse } from '../../../schemas/recipe-import.js'
import { VideoImportBody, VideoPreviewBody, VideoPreviewResponse } from '../../../schemas/video-import.js'

const Envelope = ref(EnvelopeError)
const gate = (importsPerHour: number) => 'Needs the `recipe-import` feature for your plan and account, a monthly import left and ' +
  `room under the plan's recipe limit (403 otherwise); at most ${importsPerHour} imports an hour, the page import's ` +
  `included (429). The same post again within ${IMPORT_REPEAT_SECONDS / 60} minutes answers 200 with the recipe the ` +
  'first import made, spending nothing.'
const READ = 'Any other link is 400 `URL not allowed`. The post\'s page is fetched from the platform\'s own hosts only ' +
  '(short links followed hop by hop, each hop on those hosts and under the URL safety rules: 400 otherwise; 15 s and ' +
  '5 MB at most, 502 when the page does not come back), or read from `html`. Caption, author, thumbnail and duration ' +
  'come from the page\'s embedded data (its OpenGraph tags otherwise), subtitles (WebVTT, 512 KB at most) from the ' +
  'platform. A removed, private or region-blocked post, or a caption without a recipe, is 422 `No recipe found` with ' +
  'the reason in `details`. With an AI provider configured the caption and subtitles (and, with AI_TRANSCRIBE, a ' +
  'transcript of the audio) are structured by the model, its recipe checked against what the video says; otherwise, ' +
  'or when the model fails, the caption is read as text. The recipe\'s `sourceUrl` is the post\'s canonical address, ' +
  'its description credits the author.'
const errors = { 400: Envelope, 403: Envelope, 422: Envelope, 429: Envelope, 502: Envelope, 503: Envelope, 504: Envelope }

const tiktok: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.videoImportService
  const GATE = gate(fastify.config.rateLimit.importsPerHour)

  fastify.post('/preview', {
    bodyLimit: IMPORT_BODY_LIMIT + 64 * 1024,
    config: { envelope: true },
    schema: {
      operationId: 'tiktok.preview',
      summary: 'Read a recipe from a video post without saving it',
      description: `${READ} ${GATE} Previews do not use the monthly allowance. \`duplicates\` lists your recipes from ` +
        'the same post, at most 10 (not paged).',
      body: VideoPreviewBody,
      response: { 200: VideoPreviewResponse, ...errors }
    }
  }, async request => {
    const { preview, duplicates, video } = await service.preview(currentUser(request).id, request.body.url, request.body.html)
    return { success: true as const, preview, duplicates, video }
  })

  fastify.post('/import', {
    bodyLimit: IMPORT_BODY_LIMIT + 64 * 1024,
    config: { envelope: true },
    schema: {
      operationId: 'tiktok.import',
      summary: 'Import a video post as a recipe',
      description: `${READ} ${GATE} Saved as a draft unless \`saveAsDraft\` is false; uses one monthly import. The ` +
        'video\'s thumbnail becomes the recipe\'s picture as a page import\'s image does (a copy we store; `imageUrl` null ' +
        'when it cannot be copied).',
      body: VideoImportBody,
      response: { 200: ImportedResponse, 201: ImportedResponse, ...errors }
    }
  }, async (request, reply) => {
    const { url, html, saveAsDraft } = request.body
    const { recipe, created } = await service.import(currentUser(request).id, url, html, saveAsDraft ?? true)
    return await reply.code(created ? 201 : 200).send({ success: true, recipe })
  })
}

export default tiktok
