// Image checks and re-encoding (sharp). What is stored is never the bytes a client sent: every image is decoded
// and written anew as WebP, which drops metadata (EXIF, GPS) and anything riding along in the file.
import { fileTypeFromBuffer } from 'file-type'
import type { Sharp, SharpOptions } from 'sharp'
import { HttpError, invalidImage, unsupportedImage, validationError } from './errors.js'
import { scanBuffer, type ImageScan } from './image-scan.js'

let loaded: Promise<typeof import('sharp')> | null = null

/**
 * Loads sharp (libvips). Loading is synchronous native work (tens of milliseconds of the event loop): a server that
 * takes images calls this while it starts, so no request waits for it. A server decodes each image once: libvips'
 * operation cache would only hold memory, and one thread per image (the media service runs two at a time) keeps
 * the event loop's core free on small machines.
 */
export async function loadSharp (): Promise<typeof import('sharp').default> {
  const { default: create } = await (loaded ??= import('sharp').then(module => {
    module.default.cache(false)
    module.default.concurrency(1)
    return module
  }))
  return create
}

export async function sharp (input: Buffer, options: SharpOptions): Promise<Sharp> {
  return (await loadSharp())(input, options)
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

export type ImageType = typeof IMAGE_TYPES[number]

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

/** Bytes as received, with their scan when it was made as they arrived (lib/multipart-file.ts). */
export interface ImageBytes {
  data: Buffer
  scanned?: ImageScan
}

/** An image that passed checkImage: the only input processImage takes. */
export interface CheckedImage {
  readonly data: Buffer
  readonly type: ImageType
  readonly sourceHash: string
}

/**
 * Refuses what is not a plain image of an allowed type: the declared type must be allowed, the bytes must carry
 * that type's signature (with no declared type, the signature must be one of the allowed types), no markup may ride
 * along and nothing may follow the image's end. Reads only the file's structure: nothing is decoded. The bytes are
 * hashed and scanned once, as they arrived or a slice per turn of the event loop.
 */
export async function checkImage (field: string, bytes: ImageBytes, declaredType: string | undefined, allowed: readonly ImageType[]): Promise<CheckedImage> {
  const declared = declaredType?.toLowerCase()
  if (declared != null && !isAllowed(declared, allowed)) throw unsupportedImage(field, allowed)
  const { data } = bytes
  if (data.length === 0) throw validationError([`${field}: is empty`])
  const detected = (await fileTypeFromBuffer(data))?.mime
  if (declared != null && detected !== declared) throw invalidImage(field, `content is not ${declared}`)
  if (detected == null) throw invalidImage(field, `content is not one of ${allowed.join(', ')}`)
  // Another image format (TIFF, SVG, AVIF...) is a wrong type, as a declared one would be.
  if (!isAllowed(detected, allowed)) throw unsupportedImage(field, allowed)
  const { sourceHash, markup } = bytes.scanned ?? await scanBuffer(data)
  if (markup) throw invalidImage(field, 'contains embedded markup')
  if (!endsWhereItSays(detected, data)) throw invalidImage(field, 'is truncated or has data after the end of the image')
  return { data, type: detected, sourceHash }
}

const isAllowed = (type: string, allowed: readonly ImageType[]): type is ImageType => (allowed as readonly string[]).includes(type)

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

/** sharp's input options for a checked image: first frame only, and the pixel bound checked before decoding. */
export const DECODE_OPTIONS = { failOn: 'truncated', limitInputPixels: IMAGE_LIMITS.pixels, pages: 1 } as const

/** Decodes (first frame only), auto-rotates, strips metadata, bounds the size and writes WebP. */
export async function processImage (field: string, image: CheckedImage, variant: ImageVariant): Promise<ProcessedImage> {
  const { data } = image
  const options = DECODE_OPTIONS
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
    return { data: output, width: info.width, height: info.height, size: output.length, contentType: 'image/webp', sourceHash: image.sourceHash }
  } catch (err) {
    if (err instanceof HttpError) throw err
    if (err instanceof Error && /pixel limit/i.test(err.message)) {
      throw invalidImage(field, `has more than ${IMAGE_LIMITS.pixels / 1_000_000} megapixels`)
    }
    // libvips' messages name its internals; the client learns only that the file does not decode.
    throw invalidImage(field, 'could not be decoded (truncated or corrupt)')
  }
}
