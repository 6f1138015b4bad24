// Import from pasted text or a photo of a recipe (OCR, then the text path): a preview to edit (saved later through
// from-preview), or a recipe at once.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IMPORT_REPEAT_SECONDS } from '../../../plugins/app/services/recipe-import.js'
import { currentUser } from '../../../plugins/app/auth.js'
import { EnvelopeError, ref } from '../../../schemas/common.js'
import {
  FromImageBody, FromTextBody, IMAGE_BODY_LIMIT, ImagePreviewBody, ImportedResponse, MAX_IMPORT_TEXT, ReadPreviewResponse, TextPreviewBody
} from '../../../schemas/recipe-import.js'

const Envelope = ref(EnvelopeError)
const GATE = 'Needs the `recipe-import` feature, a monthly import left and room under the recipe limit (403 otherwise). ' +
  'Saved as a draft unless `saveAsDraft` is false. The same text or image again within ' + `${IMPORT_REPEAT_SECONDS / 60} ` +
  'minutes (a repeat, a double submit) answers 200 with the recipe the first import made, spending nothing.'
// As the page preview (POST /preview): the same gate and hourly rate, but no monthly import is spent.
const previewGate = (importsPerHour: number) => 'Nothing is saved. Needs the `recipe-import` feature, a monthly ' +
  `import left and room under the recipe limit (403 otherwise); counts among the ${importsPerHour} imports an hour ` +
  '(429) but, like the page preview, does not use the monthly allowance: saving it through from-preview does.'
const TEXT = `Title, ingredients and steps are found by their headings or by layout (at most ${MAX_IMPORT_TEXT} ` +
  'characters). Nothing recipe-like: 422.'
const IMAGE = 'The image is base64 (at least 100 characters; at most 5 MB decoded), read with OCR (English) on ' +
  'this server, then parsed as text. It is checked as an upload is, before anything decodes it: JPEG, PNG, WebP or ' +
  'GIF (first frame), the type `mimeType` or the data URL declares (if any) matching the file\'s signature (another ' +
  'type: 415; a mismatch: 400). No recipe in it: 422.'

const text: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.recipeImportService
  const PREVIEW = previewGate(fastify.config.rateLimit.importsPerHour)

  fastify.post('/text-preview', {
    config: { envelope: true },
    schema: {
      operationId: 'recipeImport.textPreview',
      summary: 'Read a recipe from pasted text without saving it',
      description: `${TEXT} ${PREVIEW}`,
      body: TextPreviewBody,
      response: { 200: ReadPreviewResponse, 400: Envelope, 403: Envelope, 422: Envelope, 429: Envelope }
    }
  }, async request => {
    const { preview } = await service.textPreview(currentUser(request).id, request.body.text)
    return { success: true as const, preview }
  })

  fastify.post('/from-text', {
    config: { envelope: true },
    schema: {
      operationId: 'recipeImport.fromText',
      summary: 'Import a recipe from pasted text',
      description: `${TEXT} ${GATE}`,
      body: FromTextBody,
      response: { 200: ImportedResponse, 201: ImportedResponse, 400: Envelope, 403: Envelope, 422: Envelope, 429: Envelope }
    }
  }, async (request, reply) => {
    const { recipe, created } = await service.fromText(currentUser(request).id, request.body.text, request.body.saveAsDraft ?? true)
    return await reply.code(created ? 201 : 200).send({ success: true, recipe })
  })

  fastify.post('/image-preview', {
    bodyLimit: IMAGE_BODY_LIMIT + 64 * 1024,
    config: { envelope: true },
    schema: {
      operationId: 'recipeImport.imagePreview',
      summary: 'Read a recipe from a photo or scan (OCR) without saving it',
      description: `${IMAGE} ${PREVIEW}`,
      body: ImagePreviewBody,
      response: { 200: ReadPreviewResponse, 400: Envelope, 403: Envelope, 415: Envelope, 422: Envelope, 429: Envelope, 503: Envelope }
    }
  }, async request => {
    const { preview } = await service.imagePreview(currentUser(request).id, request.body.image, request.body.mimeType)
    return { success: true as const, preview }
  })

  fastify.post('/from-image', {
    bodyLimit: IMAGE_BODY_LIMIT + 64 * 1024,
    config: { envelope: true },
    schema: {
      operationId: 'recipeImport.fromImage',
      summary: 'Import a recipe from a photo or scan (OCR)',
      description: `${IMAGE} ${GATE}`,
      body: FromImageBody,
      response: { 200: ImportedResponse, 201: ImportedResponse, 400: Envelope, 403: Envelope, 415: Envelope, 422: Envelope, 429: Envelope, 503: Envelope }
    }
  }, async (request, reply) => {
    const { image, mimeType, saveAsDraft } = request.body
    const { recipe, created } = await service.fromImage(currentUser(request).id, image, saveAsDraft ?? true, mimeType)
    return await reply.code(created ? 201 : 200).send({ success: true, recipe })
  })
}

export default text
