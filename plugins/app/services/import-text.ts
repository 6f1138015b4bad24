// Pasted text and photos of a recipe (a card, a cookbook page) read into a preview, for the recipe import service:
// the text parser finds title, ingredients and steps; a photo is first checked as an upload is, then read by OCR.
// The preview routes and the from-text/from-image routes read through the same functions, so what a preview shows is
// what the import would save.
import type { FastifyInstance } from 'fastify'
import { NoRecipeFound, validationError } from '../../../lib/errors.js'
import { checkImage, IMAGE_TYPES, type CheckedImage } from '../../../lib/images.js'
import { createOcr } from '../../../lib/recipe-import/ocr.js'
import type { RecipePreview } from '../../../lib/recipe-import/preview.js'
import { parseRecipeText } from '../../../lib/recipe-import/text.js'

const MAX_IMAGE_BYTES = 5 * 1024 * 1024

/** A preview is worth keeping when it has a title and either ingredients or steps. */
export const usable = (preview: RecipePreview | null): preview is RecipePreview =>
  preview != null && preview.title.trim() !== '' && (preview.ingredients.length > 0 || preview.instructions.length > 0)

/** The recipe in a text, or 422 `No recipe found`. */
export function readText (text: string): RecipePreview {
  const preview = parseRecipeText(text)
  if (!usable(preview)) throw new NoRecipeFound()
  return preview
}

/**
 * Decodes a base64 image (a data: URL prefix allowed) within the size bound, then checks it as an upload is checked
 * (lib/images.ts), before anything decodes it: only the upload formats reach sharp and OCR. The declared type is
 * `mimeType`, else the data URL's; with neither, the file's signature must be one of the upload types.
 */
export async function checkedImage (image: string, mimeType: string | undefined): Promise<CheckedImage> {
  const dataUrl = /^data:([^,;]{0,100})[^,]{0,100},/.exec(image)
  const base64 = image.slice(dataUrl?.[0].length ?? 0).replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(base64)) throw validationError(['image: must be base64'])
  const bytes = Buffer.from(base64, 'base64')
  if (bytes.length > MAX_IMAGE_BYTES) throw validationError([`image: at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB`])
  const declared = [mimeType, dataUrl?.[1]].find(type => type != null && type !== '')
  return await checkImage('image', { data: bytes }, declared, IMAGE_TYPES)
}

/** Reads a checked photo's recipe with this instance's one OCR worker (closed with the app), or 422. */
export function createPhotoReader (fastify: FastifyInstance): (image: CheckedImage) => Promise<RecipePreview> {
  const ocr = createOcr({ maxConcurrent: 1 })
  fastify.addHook('onClose', async () => { await ocr.close() })
  return async image => readText(await ocr.recognize(image.data))
}
