// One file from a multipart/form-data request, read with hard bounds (@fastify/multipart registered on the route's
// plugin with MULTIPART_OPTIONS). The client's file name is never used for storage, but a name carrying a path or
// control characters is refused rather than passed along.
import type { FastifyMultipartOptions } from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import { HttpError, validationError } from './errors.js'
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
  mimetype: string
  filename: string
  /** Whether the client has closed its connection since. */
  abandoned: () => boolean
}

const UNSAFE_NAME = /[/\\\p{Cc}]|\.\./u

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
    // Throws 413 (FST_REQ_FILE_TOO_LARGE) past IMAGE_LIMITS.bytes.
    received = { data: await part.toBuffer(), mimetype: part.mimetype, filename: part.filename, abandoned: () => request.raw.socket?.destroyed === true }
  }
  return received
}
