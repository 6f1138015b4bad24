// The picture of an imported recipe, fetched from its page's image address under the URL safety rules (safeFetch:
// public addresses only, every redirect checked again), within the upload size and a short deadline. What comes back
// is only bytes: the caller checks and re-encodes them as an upload (services/media.ts), so nothing from outside is
// stored as it came.
import { IMAGE_LIMITS } from '../images.js'
import { FetchFailed, safeFetch, UrlNotAllowed, type SafeFetchOptions } from './safe-fetch.js'

/** The default deadline of one image copy (DNS, every hop and the body): IMPORT_IMAGE_TIMEOUT_MS. */
export const IMAGE_COPY_TIMEOUT_MS = 5000

/**
 * Response types worth reading. The file's own signature decides what it is (checkImage); these only spare reading
 * what says it is something else (a page, an SVG, a video). Servers that do not know send octet-stream or nothing.
 */
const READABLE_TYPES = new Set([
  'image/jpeg', 'image/jpg', 'image/pjpeg', 'image/png', 'image/webp', 'image/gif',
  'application/octet-stream', 'binary/octet-stream', ''
])

export type ImageCopy =
  | { ok: true, data: Buffer }
  /** `refused`: the address (or a redirect hop) is not allowed; `failed`: timeout, too large, wrong type, error status. */
  | { ok: false, reason: 'refused' | 'failed', message: string }

export interface ImageCopyOptions extends Pick<SafeFetchOptions, 'allowOrigins' | 'signal' | 'lookup'> {
  /** Default IMAGE_COPY_TIMEOUT_MS. */
  timeoutMs?: number
  /** Default IMAGE_LIMITS.bytes (an upload's bound). */
  maxBytes?: number
}

/** An absolute http(s) URL of at most 2000 characters (what a recipe may keep), or null. */
export function imageAddress (value: string | null | undefined): string | null {
  return value != null && value.length <= 2000 && /^https?:\/\//i.test(value) && URL.canParse(value) ? value : null
}

/** Fetches the bytes at `url`; never throws for what the address or its server does (the import goes on without). */
export async function fetchImage (url: string, options: ImageCopyOptions = {}): Promise<ImageCopy> {
  try {
    const response = await safeFetch(url, {
      allowOrigins: options.allowOrigins,
      signal: options.signal,
      lookup: options.lookup,
      timeoutMs: options.timeoutMs ?? IMAGE_COPY_TIMEOUT_MS,
      maxBytes: options.maxBytes ?? IMAGE_LIMITS.bytes,
      accept: type => READABLE_TYPES.has(type),
      headers: { accept: 'image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1' }
    })
    if (response.body.length === 0) return { ok: false, reason: 'failed', message: 'empty response' }
    return { ok: true, data: response.body }
  } catch (err) {
    if (err instanceof UrlNotAllowed) return { ok: false, reason: 'refused', message: err.message }
    if (err instanceof FetchFailed) return { ok: false, reason: 'failed', message: err.message }
    throw err
  }
}
