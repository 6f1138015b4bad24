// Image checks and re-encoding (sharp). What is stored is never the bytes a client sent: every image is decoded
// and written anew as WebP, which drops metadata (EXIF, GPS) and anything riding along in the file.
import { createHash } from 'node:crypto'
import { fileTypeFromBuffer } from 'file-type'
import type { Sharp, SharpOptions } from 'sharp'
import { HttpError, invalidImage, unsupportedImage, validationError } from './errors.js'

let loaded: Promise<typeof import('sharp')> | null = null

/**
 * sharp, loaded with the first image (libvips adds about 20 MB to an instance that never sees one). A server decodes
 * each image once: libvips' operation cache would only hold memory, and one thread per image (the media service runs
 * two at a time) keeps the event loop's core free on small machines.
 */
export async function sharp (input: Buffer, options: SharpOptions): Promise<Sharp> {
  const { default: create } = await (loaded ??= import('sharp').then(module => {
    module.default.cache(false)
    module.default.concurrency(1)
    return module
  }))
  return create(input, options)
}

export const IMAGE_LIMITS = {
  /** Bytes of one uploaded file (interface.md "Limits"). */
  bytes: 10 * 1024 * 1024,
  /** Decoded pixels: a small file can declare 50000x50000 (a decompression bomb); refused before decoding. */
  pixels: 40_000_000,
  /** Longest side of a stored image. */
  side: 2048,
  /** Side of the square avatar. */
  avatarSide: 512
} as const

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const
export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const

export interface ProcessedImage {
  data: Buffer
  width: number
  height: number
  size: number
  contentType: 'image/webp'
  /** sha256 of the bytes as sent: the same picture sent again is recognised before any decoding. */
  sourceHash: string
}

export type ImageVariant = 'image' | 'avatar'

/**
 * Markup that makes a file a polyglot (an image that is also an HTML page or a script for a browser that sniffs).
 * Re-encoding would drop it anyway; refusing it tells the sender plainly.
 */
const MARKUP = /<(?:script|html|body|iframe|svg|object|embed|\?php)[\s/>]|javascript:/i

export const sourceHash = (data: Buffer) => createHash('sha256').update(data).digest('hex')

/**
 * Refuses what is not a plain image of an allowed type: the declared type must be allowed, the bytes must carry
 * that type's signature, and no markup may ride along.
 */
export async function checkImage (field: string, data: Buffer, declaredType: string, allowed: readonly string[]): Promise<void> {
  const declared = declaredType.toLowerCase()
  if (!allowed.includes(declared)) throw unsupportedImage(field, allowed)
  if (data.length === 0) throw validationError([`${field}: is empty`])
  const detected = await fileTypeFromBuffer(data)
  if (detected?.mime !== declared) throw invalidImage(field, `content is not ${declared}`)
  if (MARKUP.test(data.toString('latin1'))) throw invalidImage(field, 'contains embedded markup')
  if (!endsWhereItSays(declared, data)) throw invalidImage(field, 'is truncated or has data after the end of the image')
}

const PNG_END = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82])

/**
 * Whether the file stops where its format ends: bytes appended after the image are how most polyglots (image +
 * archive, image + page) are made. JPEG is exempt: phone cameras append their own data after the image.
 */
function endsWhereItSays (type: string, data: Buffer): boolean {
  switch (type) {
    case 'image/png': return data.subarray(-PNG_END.length).equals(PNG_END)
    case 'image/gif': return data[data.length - 1] === 0x3b
    // RIFF: bytes 4-7 count what follows the first 8 (padded to an even length).
    case 'image/webp': return data.length >= 12 && data.readUInt32LE(4) + 8 + (data.readUInt32LE(4) % 2) === data.length
    default: return true
  }
}

/** Decodes (first frame only), auto-rotates, strips metadata, bounds the size and writes WebP. */
export async function processImage (field: string, data: Buffer, variant: ImageVariant): Promise<ProcessedImage> {
  const options = { failOn: 'truncated', limitInputPixels: IMAGE_LIMITS.pixels, pages: 1 } as const
  try {
    const { width, height } = await (await sharp(data, options)).metadata()
    if (width == null || height == null) throw invalidImage(field, 'could not be decoded')
    let pipeline = (await sharp(data, options)).rotate()
    if (variant === 'avatar') {
      const side = Math.min(width, height, IMAGE_LIMITS.avatarSide)
      pipeline = pipeline.resize(side, side, { fit: 'cover', position: 'centre' })
    } else {
      pipeline = pipeline.resize(IMAGE_LIMITS.side, IMAGE_LIMITS.side, { fit: 'inside', withoutEnlargement: true })
    }
    const { data: output, info } = await pipeline.webp({ quality: 82 }).toBuffer({ resolveWithObject: true })
    return { data: output, width: info.width, height: info.height, size: output.length, contentType: 'image/webp', sourceHash: sourceHash(data) }
  } catch (err) {
    if (err instanceof HttpError) throw err
    if (err instanceof Error && /pixel limit/i.test(err.message)) {
      throw invalidImage(field, `has more than ${IMAGE_LIMITS.pixels / 1_000_000} megapixels`)
    }
    // libvips' messages name its internals; the client learns only that the file does not decode.
    throw invalidImage(field, 'could not be decoded (truncated or corrupt)')
  }
}
