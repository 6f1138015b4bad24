// Images made on the spot with sharp (nothing binary is committed) and raw multipart bodies, so a test controls
// every byte a hostile client could send: the declared type, the file name, the boundary.
import { randomBytes } from 'node:crypto'
import zlib from 'node:zlib'
import sharp from 'sharp'

export async function pngImage (width = 64, height = 48, color = '#c0392b'): Promise<Buffer> {
  return await sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer()
}

export async function gifImage (width = 40, height = 30): Promise<Buffer> {
  return await sharp({ create: { width, height, channels: 3, background: '#2980b9' } }).gif().toBuffer()
}

export async function webpImage (width = 40, height = 30): Promise<Buffer> {
  return await sharp({ create: { width, height, channels: 3, background: '#27ae60' } }).webp().toBuffer()
}

/** A landscape JPEG whose EXIF says "rotate 90°" and carries a camera copyright and GPS position. */
export async function jpegWithExif (width = 300, height = 200): Promise<Buffer> {
  return await sharp({ create: { width, height, channels: 3, background: '#8e44ad' } })
    .jpeg()
    .withMetadata({
      orientation: 6,
      exif: { IFD0: { Copyright: 'Secret Camera Owner' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1' } }
    })
    .toBuffer()
}

function pngChunk (type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(zlib.crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A tiny PNG whose header claims width x height pixels (a decompression bomb's header). */
export function pngHeaderClaiming (width: number, height: number): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))),
    pngChunk('IEND', Buffer.alloc(0))
  ])
}

export interface Part { name: string, filename?: string, type?: string, data: Buffer | string }

/** A multipart/form-data body exactly as given (file names and types are not checked or escaped). */
export function multipart (parts: Part[]): { payload: Buffer, headers: Record<string, string> } {
  const boundary = `----test${randomBytes(8).toString('hex')}`
  const chunks: Buffer[] = []
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`
    if (part.filename !== undefined) head += `; filename="${part.filename}"`
    head += '\r\n'
    if (part.type !== undefined) head += `Content-Type: ${part.type}\r\n`
    chunks.push(Buffer.from(head + '\r\n', 'latin1'), Buffer.from(part.data), Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

/** The usual one-file form: `field` holding `data` named photo.<ext>, declared as `type`. */
export function fileForm (field: string, data: Buffer | string, type: string, filename = 'photo.png') {
  return multipart([{ name: field, filename, type, data }])
}
