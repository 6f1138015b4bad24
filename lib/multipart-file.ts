// One file from a multipart/form-data request, read with hard bounds (@fastify/multipart registered on the route's
// plugin with MULTIPART_OPTIONS). The client's file name is never used for storage, but a name carrying a path or
// control characters is refused rather than passed along. The file is hashed and scanned chunk by chunk as it
// arrives (lib/image-scan.ts) and copied once, into a buffer sized from the request's Content-Length.
import type { FastifyMultipartOptions, MultipartFile } from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { HttpError, validationError } from './errors.js'
import { ImageScanner, type ImageScan } from './image-scan.js'
import { IMAGE_LIMITS } from './images.js'

export const MULTIPART_OPTIONS: FastifyMultipartOptions = {
  // The name as sent (busboy would cut it to its base name), so a name with a path is seen and refused.
  preservePath: true,
  limits: {
    fileSize: IMAGE_LIMITS.bytes,
    // Two, so that a second file is seen and refused with a clear message rather than silently dropped.
    files: 2,
    fields: 10,
    fieldSize: 1024,
    fieldNameSize: 100,
    parts: 12,
    headerPairs: 20
  }
}

export interface ReceivedFile {
  data: Buffer
  /** sha256 and markup scan of `data`, made as it arrived. */
  scanned: ImageScan
  mimetype: string
  filename: string
  /** Whether the client has closed its connection since. */
  abandoned: () => boolean
  /**
   * Gives `data`'s memory back at once (`data` is empty after): call it when the request is done with the file.
   * Otherwise a burst of large uploads stays in memory until the next full garbage collection, which an idle server
   * may not run for minutes.
   */
  release: () => void
}

const UNSAFE_NAME = /[/\\\p{Cc}]|\.\./u

/**
 * Frees the memory under `data` now, by detaching its ArrayBuffer, rather than at the next full garbage collection;
 * only when that memory is `data`'s own: the buffer `receive` allocated, or one larger than Node's pool slabs that
 * `data` starts (Buffer.concat's), never a slab of small buffers shared with others.
 */
function releaser (data: Buffer): () => void {
  const memory = data.buffer
  if (!(memory instanceof ArrayBuffer) || data.byteOffset !== 0 || memory.byteLength <= Buffer.poolSize) return () => {}
  return () => { if (!memory.detached) memory.transfer(0) }
}

/** The one file sent in `field`; other form fields are ignored. */
export async function singleFile (request: FastifyRequest, field: string): Promise<ReceivedFile> {
  let received: ReceivedFile | null = null
  try {
    received = await read(request, field)
  } catch (err) {
    // Our refusals and @fastify/multipart's (FST_*) carry their status; anything else is busboy on a broken body.
    if (err instanceof HttpError || String((err as { code?: unknown }).code).startsWith('FST_')) throw err
    throw validationError(['body: malformed multipart/form-data'])
  }
  if (received == null) throw validationError([`${field}: is required (a multipart/form-data file field)`])
  return received
}

async function read (request: FastifyRequest, field: string): Promise<ReceivedFile | null> {
  let received: ReceivedFile | null = null
  for await (const part of request.parts()) {
    if (part.type !== 'file') continue
    if (part.fieldname !== field || received != null) {
      part.file.resume()
      throw validationError([`${field}: send exactly one file, in the "${field}" field`])
    }
    if (part.filename.length > 255 || UNSAFE_NAME.test(part.filename)) {
      part.file.resume()
      throw validationError([`${field}: the file name must be a plain name (no path or control characters)`])
    }
    const { data, scanned } = await receive(request, part)
    received = {
      data,
      scanned,
      mimetype: part.mimetype,
      filename: part.filename,
      abandoned: () => request.raw.socket?.destroyed === true,
      release: releaser(data)
    }
  }
  return received
}

/** Bytes of one upload handled per turn of the event loop (about a millisecond of scanning, hashing and copying). */
const BYTES_PER_TURN = 256 * 1024

/**
 * The part's bytes and their scan. Each chunk is scanned and copied as it arrives, into one buffer as large as the
 * request's body (the file cannot be larger), so no step goes over the whole file at once; a body of unknown length
 * (chunked) is joined at the end. Throws 413 (FST_REQ_FILE_TOO_LARGE) past IMAGE_LIMITS.bytes, as `toBuffer` does.
 */
async function receive (request: FastifyRequest, part: MultipartFile): Promise<{ data: Buffer, scanned: ImageScan }> {
  const scanner = new ImageScanner()
  const declared = Number(request.headers['content-length'])
  // Its own memory, never a slice of Node's shared pool, so that `release` may free it.
  let into = Number.isSafeInteger(declared) && declared > 0 ? Buffer.allocUnsafeSlow(Math.min(declared, IMAGE_LIMITS.bytes)) : null
  const chunks: Buffer[] = []
  let size = 0
  let tooLarge = false
  let sinceTurn = 0
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    // Read to the end all the same, so that busboy reaches the next part (the multipart plugin's own behaviour).
    tooLarge ||= part.file.truncated
    if (tooLarge) continue
    // Node reads up to 2 MB from a busy socket in one callback: waiting for the next turn now and then lets the
    // stream push back, so one turn of the event loop handles a bounded share of each upload.
    if ((sinceTurn += chunk.length) > BYTES_PER_TURN) {
      sinceTurn = 0
      await nextTurn()
    }
    scanner.update(chunk)
    if (into != null && size + chunk.length > into.length) {
      // Cannot happen while the body's length bounds the file; joined at the end if it does.
      chunks.push(into.subarray(0, size))
      into = null
    }
    if (into != null) chunk.copy(into, size)
    else chunks.push(chunk)
    size += chunk.length
  }
  if (tooLarge) throw Object.assign(new request.server.multipartErrors.RequestFileTooLargeError(), { part })
  return { data: into != null ? into.subarray(0, size) : Buffer.concat(chunks), scanned: scanner.result() }
}
