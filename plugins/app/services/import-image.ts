// The picture of an imported recipe. The page's (or preview's) image address is never shown as the recipe's image:
// the picture is fetched through the safe fetcher (lib/recipe-import/image-copy.ts) within the upload size and
// IMPORT_IMAGE_TIMEOUT_MS, checked and re-encoded exactly as an upload (mediaService.uploadImage: a media row owned by
// the importing user, so deletion and the upload limit treat it as theirs), and the recipe points at the copy. The
// address itself is kept as `sourceImageUrl`. When the copy fails for any reason the import goes on without a picture.
import type { FastifyInstance } from 'fastify'
import { HttpError, ImageNotFound } from '../../../lib/errors.js'
import { fetchImage, imageAddress } from '../../../lib/recipe-import/image-copy.js'
import { detached, scope } from '../../../lib/request-scope.js'

export interface ImportedImage {
  /** The recipe's `imageUrl`: our stored copy, one of the caller's uploads given as it is, or null. */
  imageUrl: string | null
  /** The address the page or preview gave, kept as the recipe's `sourceImageUrl` (null when it was one of our files). */
  sourceImageUrl: string | null
  /** Removes a copy this import stored when no new recipe uses it (creation failed, or a repeat got the first recipe). */
  discard: () => Promise<void>
}

const nothingToDiscard = async (): Promise<void> => {}

export function createImportImages (fastify: FastifyInstance) {
  const { storage } = fastify
  const allowOrigins = fastify.config.importAllowOrigins
  const timeoutMs = fastify.config.importImageTimeoutMs

  /** Deletes an unused copy as the caller would delete an upload; the client having left does not stop it. */
  const removal = (userId: string, key: string) => async (): Promise<void> => {
    await detached(async () => await fastify.mediaService.deleteImage(userId, key)).catch(err => {
      if (!(err instanceof ImageNotFound)) fastify.log.error({ err, key }, 'unused import image not removed')
    })
  }

  /**
   * The picture for a recipe imported with image address `value`. `given`: the caller sent it (from-preview), so one
   * of our stored files is handed on as it is and recipe creation decides, as for POST /api/recipes (the caller's own
   * upload, else 400). From a page, one of the caller's own uploads is kept and anything else is copied.
   */
  async function copy (userId: string, value: string | null | undefined, given: boolean): Promise<ImportedImage> {
    const address = imageAddress(value)
    if (address == null) return { imageUrl: null, sourceImageUrl: null, discard: nothingToDiscard }
    const located = storage.locate(address)
    if (located != null) {
      const own = located.key != null && located.key.startsWith(`uploads/${userId}/`) &&
        await fastify.mediaRepository.byKey(fastify.db, userId, 'image', located.key) != null
      if (given || own) return { imageUrl: address, sourceImageUrl: null, discard: nothingToDiscard }
    }
    const signal = scope.getStore()?.signal
    const notCopied = (reason: string, err?: unknown): ImportedImage => {
      fastify.log.info({ url: address, reason, err }, 'imported recipe image not copied')
      return { imageUrl: null, sourceImageUrl: address, discard: nothingToDiscard }
    }
    const fetched = await fetchImage(address, { allowOrigins, timeoutMs, signal })
    if (!fetched.ok) return notCopied(`${fetched.reason}: ${fetched.message}`)
    try {
      const { upload, created } = await fastify.mediaService.uploadImage(userId, { data: fetched.data, abandoned: () => signal?.aborted === true })
      return { imageUrl: upload.url, sourceImageUrl: address, discard: created ? removal(userId, upload.key) : nothingToDiscard }
    } catch (err) {
      // Not an image we take (type, markup, size, pixels), the user's upload limit, a full queue or storage.
      if (err instanceof HttpError && err.statusCode < 500) return notCopied([err.message, ...(err.details ?? [])].join(': '))
      return notCopied('not stored', err)
    }
  }

  return { copy }
}
