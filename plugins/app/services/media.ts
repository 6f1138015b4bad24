// Uploaded images and avatars: checks, re-encoding with bounded concurrency, storage and the media rows that
// reference the files. A file is written before its row and removed when the row cannot be written; a row goes
// before (or with) its file, so no row ever points at a missing file.
import { createId } from '@paralleldrive/cuid2'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import pLimit from 'p-limit'
import { ImageDeleteForbidden, ImageNotFound, InsufficientStorage, RequestAbandoned, ServiceBusy, ServiceUnavailable, UploadLimitReached, validationError } from '../../../lib/errors.js'
import { isStorageFull } from '../../../lib/storage.js'
import type { ImageScan } from '../../../lib/image-scan.js'
import { AVATAR_TYPES, checkImage, IMAGE_TYPES, loadSharp, processImage, type CheckedImage, type ImageVariant, type ProcessedImage } from '../../../lib/images.js'
import type { ImageUploadView } from '../../../schemas/media.js'
import type { Db } from '../../external/db.js'
import type { MediaKind, MediaRow, NewMedia } from '../repositories/media.js'

declare module 'fastify' {
  interface FastifyInstance {
    mediaService: ReturnType<typeof createMediaService>
  }
}

/** Images a user may keep (documented in the README); avatars replace each other. */
export const MAX_IMAGES_PER_USER = 1000
/** Images decoded at once per instance (libvips threads each one); more wait, and past the queue bound get 503. */
const PROCESSING_CONCURRENCY = 2
const PROCESSING_QUEUE = 8
/** Job removing replaced avatars' files after the replacement commits. */
const REMOVE_FILES_JOB = 'storage.remove'

export interface UploadedFile {
  data: Buffer
  /** The hash and markup scan made as the bytes arrived (singleFile); made here, a slice at a time, without it. */
  scanned?: ImageScan
  /** The declared type; absent for an image fetched from outside (an import's picture): its bytes' signature decides. */
  mimetype?: string
  /** True once the client has gone (its connection closed): queued work for it is skipped. */
  abandoned?: () => boolean
}

export function createMediaService (fastify: FastifyInstance) {
  const { mediaRepository: media, usersRepository: users, storage } = fastify
  const processing = pLimit(PROCESSING_CONCURRENCY)

  const view = (row: MediaRow): ImageUploadView =>
    ({ url: storage.url(row.key), key: row.key, width: row.width, height: row.height, size: row.size, contentType: row.contentType })

  async function process (field: string, file: UploadedFile, image: CheckedImage, variant: ImageVariant): Promise<ProcessedImage> {
    if (processing.pendingCount >= PROCESSING_QUEUE) throw new ServiceBusy()
    return await processing(async () => {
      // A client that gave up while queued would only hold a slot others are waiting for.
      if (file.abandoned?.() === true) throw new RequestAbandoned()
      return await processImage(field, image, variant)
    })
  }

  /**
   * Writes the file, then runs `record` in a transaction with the row to insert. When the transaction fails, or
   * `record` says the row was not needed (false), the file is removed again.
   */
  async function store<T> (userId: string, kind: MediaKind, image: ProcessedImage, record: (tx: Db, row: NewMedia) => Promise<{ result: T, kept: boolean }>): Promise<T> {
    const id = createId()
    const { contentType, width, height, size, sourceHash } = image
    const row: NewMedia = { id, userId, kind, key: `uploads/${userId}/${id}.webp`, contentType, width, height, size, sourceHash }
    try {
      await storage.put(row.key, image.data, image.contentType)
    } catch (err) {
      // Nothing is left of the file (storage.put removes its partial write) and no row was written.
      if (isStorageFull(err)) {
        fastify.log.error({ err, key: row.key }, 'storage full: upload refused')
        throw new InsufficientStorage()
      }
      fastify.log.error({ err, key: row.key }, 'storage write failed')
      throw new ServiceUnavailable()
    }
    let kept = false
    try {
      const { result, kept: wasKept } = await fastify.transaction(async tx => await record(tx, row))
      kept = wasKept
      return result
    } finally {
      if (!kept) await storage.remove(row.key).catch(err => fastify.log.error({ err, key: row.key }, 'could not remove an unreferenced upload'))
    }
  }

  /** The key if it is well formed and under the caller's own folder; otherwise the 403 of interface.md. */
  function ownKey (userId: string, key: string): string {
    // Decoded once by the router: what is left must be plain (no `..`, no second layer of %-encoding, no backslash).
    if (!key.startsWith(`uploads/${userId}/`) || /\.\.|%|\\|\p{Cc}/u.test(key)) throw new ImageDeleteForbidden()
    return key
  }

  return {
    /** Stores an image (201), or answers the caller's earlier upload of the same bytes (200, `created: false`). */
    async uploadImage (userId: string, file: UploadedFile): Promise<{ upload: ImageUploadView, created: boolean }> {
      const checked = await checkImage('image', file, file.mimetype, IMAGE_TYPES)
      const earlier = await media.bySource(fastify.db, userId, 'image', checked.sourceHash)
      if (earlier != null) return { upload: view(earlier), created: false }
      if (await media.count(fastify.db, userId, 'image') >= MAX_IMAGES_PER_USER) throw new UploadLimitReached({ limit: MAX_IMAGES_PER_USER })
      const image = await process('image', file, checked, 'image')
      return await store<{ upload: ImageUploadView, created: boolean }>(userId, 'image', image, async (tx, row) => {
        // Exact under concurrency: one upload of the user at a time passes the count.
        await users.lock(tx, userId)
        const used = await media.count(tx, userId, 'image')
        if (used >= MAX_IMAGES_PER_USER) throw new UploadLimitReached({ limit: MAX_IMAGES_PER_USER, used })
        const inserted = await media.insert(tx, row)
        if (inserted != null) return { result: { upload: view(inserted), created: true }, kept: true }
        // The same bytes arrived twice at once: the other request stored them (and if a delete took that row
        // meanwhile, the client is told to retry rather than given a row that is gone).
        const other = await media.bySource(tx, userId, 'image', row.sourceHash)
        if (other == null) throw new ServiceBusy()
        return { result: { upload: view(other), created: false }, kept: false }
      })
    },

    /**
     * Removes one of the caller's images and clears it from their recipes. The row goes first (committed), then the
     * file; if storage fails then, the file is left to the removal job, so no row ever points at a missing file.
     */
    async deleteImage (userId: string, key: string): Promise<void> {
      const row = await media.byKey(fastify.db, userId, 'image', ownKey(userId, key))
      if (row == null) throw new ImageNotFound()
      await fastify.transaction(async tx => {
        await media.remove(tx, row.id)
        await fastify.recipesRepository.clearImage(tx, userId, row.key)
      })
      await storage.remove(row.key).catch(async err => {
        fastify.log.warn({ err, key: row.key }, 'storage delete failed: queued for retry')
        await fastify.queue.send(REMOVE_FILES_JOB, { keys: [row.key] })
      })
    },

    /** Makes the image the caller's avatar; the replaced avatar's file is removed once this commits. */
    async setAvatar (userId: string, file: UploadedFile): Promise<void> {
      const checked = await checkImage('avatar', file, file.mimetype, AVATAR_TYPES)
      const use = async (tx: Db, key: string) => {
        await users.setAvatar(tx, userId, storage.url(key))
        const replaced = await media.removeAllBut(tx, userId, 'avatar', key)
        if (replaced.length > 0) await fastify.queue.send(REMOVE_FILES_JOB, { keys: replaced }, tx)
      }
      const earlier = await media.bySource(fastify.db, userId, 'avatar', checked.sourceHash)
      if (earlier != null) {
        const reused = await fastify.transaction(async tx => {
          await users.lock(tx, userId)
          const held = await media.hold(tx, userId, 'avatar', earlier.key)
          if (held) await use(tx, earlier.key)
          return held
        })
        // Otherwise a concurrent change removed it meanwhile: store the picture anew.
        if (reused) return
      }
      const image = await process('avatar', file, checked, 'avatar')
      await store(userId, 'avatar', image, async (tx, row) => {
        await users.lock(tx, userId)
        const inserted = await media.insert(tx, row)
        const key = inserted?.key ?? (await media.bySource(tx, userId, 'avatar', row.sourceHash))?.key
        if (key == null) throw new ServiceBusy()
        await use(tx, key)
        return { result: undefined, kept: inserted != null }
      })
    },

    async removeAvatar (userId: string): Promise<void> {
      await fastify.transaction(async tx => {
        await users.lock(tx, userId)
        await users.setAvatar(tx, userId, null)
        const removed = await media.removeAllBut(tx, userId, 'avatar', null)
        if (removed.length > 0) await fastify.queue.send(REMOVE_FILES_JOB, { keys: removed }, tx)
      })
    },

    /**
     * A recipe's `imageUrl` as given by its author: an outside URL stays as it is; one of our upload keys or URLs
     * must be the author's own stored image (held until `tx` ends) and is stored as its URL.
     */
    async recipeImageUrl (tx: Db, userId: string, value: string | null | undefined): Promise<string | null | undefined> {
      if (value == null) return value
      // Decided on the canonical URL: `?x=1`, `//` or escapes must not make another user's file look like an outside one.
      const located = value.startsWith('uploads/') ? { key: value } : storage.locate(value)
      if (located == null) return value
      const { key } = located
      if (key == null || !key.startsWith(`uploads/${userId}/`) || !await media.hold(tx, userId, 'image', key)) {
        throw validationError(['imageUrl: is not one of your uploaded images'])
      }
      return storage.url(key)
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('mediaService', createMediaService(fastify))
  // libvips loads now, not during the first upload (its load blocks the event loop for tens of milliseconds).
  await loadSharp()
  await fastify.queue.work<{ keys: string[] }>(REMOVE_FILES_JOB, async ({ keys }) => {
    for (const key of keys) await fastify.storage.remove(key)
  })
}, { name: 'media-service', dependencies: ['media-repository', 'users-repository', 'recipes-repository', 'storage', 'queue', 'db'] })
