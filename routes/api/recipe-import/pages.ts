// Import from a web page: preview it, create from it (fetched safely or captured by the caller's browser), the
// legacy route, and create from an edited preview.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { IMPORT_REPEAT_SECONDS } from '../../../plugins/app/services/recipe-import.js'
import { EnvelopeError, ref } from '../../../schemas/common.js'
import {
  FromPreviewBody, FromUrlBody, IMPORT_BODY_LIMIT, ImportedResponse, LegacyImportBody, PreviewBody, PreviewResponse
} from '../../../schemas/recipe-import.js'

const Envelope = ref(EnvelopeError)
const gate = (importsPerHour: number) => 'Needs the `recipe-import` feature for your plan and account, a monthly import left and room under the ' +
  `plan's recipe limit (403 otherwise); at most ${importsPerHour} imports an hour (429). The same page (or preview) ` +
  `again within ${IMPORT_REPEAT_SECONDS / 60} minutes answers 200 with the recipe the first import made, spending nothing.`
const FETCH = 'The page is fetched from its address only when every address its host resolves to is public, on every ' +
  'redirect too (400 `URL not allowed` otherwise, the reason in `details`: scheme, port, address, credentials); 15 s ' +
  'and 5 MB at most (502 when the page does not come back); reading the recipe out of it takes 10 s at most (504). ' +
  'When its recipe is filled in by scripts, a headless browser renders it, its every request checked the same way. ' +
  'With `html` (a page your browser captured), that page is read instead of fetching it.'
const image = (timeoutMs: number) => 'The recipe\'s picture is a copy we store of the image address (`imageUrl`) the page ' +
  `or preview gives: fetched under the same address rules within ${timeoutMs / 1000} s and the upload size, then checked ` +
  'and re-encoded as an upload (it counts as one of your uploads and goes with your data). The address is kept as ' +
  '`sourceImageUrl`; when the picture cannot be copied (refused address, not an upload image type, too large, too ' +
  'slow) the recipe is saved with `imageUrl` null.'
const pageErrors = { 400: Envelope, 403: Envelope, 422: Envelope, 429: Envelope, 502: Envelope, 503: Envelope, 504: Envelope }

const pages: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.recipeImportService
  const GATE = gate(fastify.config.rateLimit.importsPerHour)
  const IMAGE = image(fastify.config.importImageTimeoutMs)

  fastify.post('/preview', {
    bodyLimit: IMPORT_BODY_LIMIT + 64 * 1024,
    config: { envelope: true },
    schema: {
      operationId: 'recipeImport.preview',
      summary: 'Read a recipe page without saving it',
      description: `${FETCH} ${GATE} Previews do not use the monthly allowance. \`duplicates\` lists your recipes ` +
        'from the same page, at most 10 (not paged).',
      body: PreviewBody,
      response: { 200: PreviewResponse, ...pageErrors }
    }
  }, async request => {
    const { preview, duplicates } = await service.preview(currentUser(request).id, request.body.url, request.body.html)
    return { success: true as const, preview, duplicates }
  })

  fastify.post('/from-url', {
    bodyLimit: IMPORT_BODY_LIMIT + 64 * 1024,
    config: { envelope: true },
    schema: {
      operationId: 'recipeImport.fromUrl',
      summary: 'Import a recipe page as a recipe',
      description: `${FETCH} ${GATE} Saved as a draft unless \`saveAsDraft\` is false; uses one monthly import. ${IMAGE}`,
      body: FromUrlBody,
      response: { 200: ImportedResponse, 201: ImportedResponse, ...pageErrors }
    }
  }, async (request, reply) => {
    const { recipe, created } = await service.fromUrl(currentUser(request).id, request.body.url, request.body.html, request.body.saveAsDraft ?? true)
    return await reply.code(created ? 201 : 200).send({ success: true, recipe })
  })

  fastify.post('/import', {
    config: { envelope: true },
    schema: {
      operationId: 'recipeImport.legacyImport',
      summary: 'Import a recipe page (older clients)',
      description: `The older form of from-url: \`userId\` must be your own id (403 otherwise) and the recipe is yours. ${GATE}`,
      body: LegacyImportBody,
      response: { 200: ImportedResponse, 201: ImportedResponse, ...pageErrors }
    }
  }, async (request, reply) => {
    const { url, userId, saveAsDraft } = request.body
    const { recipe, created } = await service.legacy(currentUser(request).id, userId, url, saveAsDraft ?? true)
    return await reply.code(created ? 201 : 200).send({ success: true, recipe })
  })

  fastify.post('/from-preview', {
    config: { envelope: true },
    schema: {
      operationId: 'recipeImport.fromPreview',
      summary: 'Save a preview (as returned by preview, possibly edited) as a recipe',
      description: `${GATE} Saved as a draft unless \`saveAsDraft\` is false; uses one monthly import. ${IMAGE} An ` +
        '`imageUrl` that is one of our stored files is used as it is, as in POST /api/recipes: your own upload, else 400.',
      body: FromPreviewBody,
      response: { 200: ImportedResponse, 201: ImportedResponse, 400: Envelope, 403: Envelope, 429: Envelope }
    }
  }, async (request, reply) => {
    const { recipe, created } = await service.fromPreview(currentUser(request).id, request.body.preview, request.body.saveAsDraft ?? true)
    return await reply.code(created ? 201 : 200).send({ success: true, recipe })
  })
}

export default pages
