// The uploads family's bench material: synthetic photos (nothing binary is committed), the stored file the
// `media-file` scenario reads, distinct JPEGs for `media-upload`, and putting the database and the upload directory
// back as they were after a run.
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import type postgres from 'postgres'
import sharp, { type Sharp } from 'sharp'

/** The picture every upload sends (about 135 KB). */
export const UPLOAD_SIZE = { width: 1200, height: 800 } as const

/** A deterministic photo-like picture: smooth colour fields with sensor-like noise (what makes a photo cost to encode). */
function photo (width: number, height: number, seed: number): Sharp {
  const data = Buffer.alloc(width * height * 3)
  let s = seed >>> 0
  const noise = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return (s / 2 ** 32 - 0.5) * 20
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3
      data[i] = 128 + 90 * Math.sin(x / 37 + seed) * Math.cos(y / 53) + noise()
      data[i + 1] = 120 + 80 * Math.sin((x + y) / 71) + noise()
      data[i + 2] = 110 + 70 * Math.cos(Math.hypot(x - width / 2, y - height / 3) / 29) + noise()
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
}

/**
 * JPEGs of one picture with distinct bytes: the n-th carries a comment segment (COM) naming n right after the start
 * marker. The service recognises a repeated upload by the hash of its bytes, so none is answered from an earlier one,
 * and every one decodes to the same pixels: each request costs the full decode, resize and encode.
 */
export async function distinctJpegs (): Promise<{ base: Buffer, nth: (n: number) => Buffer }> {
  const base = await photo(UPLOAD_SIZE.width, UPLOAD_SIZE.height, 1).jpeg({ quality: 85 }).toBuffer()
  const rest = base.subarray(2)
  return {
    base,
    nth: n => {
      const text = Buffer.from(`bench upload ${n}`, 'latin1')
      const segment = Buffer.alloc(4 + text.length)
      segment.writeUInt16BE(0xfffe, 0)
      segment.writeUInt16BE(2 + text.length, 2)
      text.copy(segment, 4)
      return Buffer.concat([base.subarray(0, 2), segment, rest])
    }
  }
}

/** A multipart/form-data body with one file in `field`: the parts around the file are built once. */
export function multipartFile (field: string, filename: string, type: string): { contentType: string, body: (data: Buffer) => Buffer } {
  const boundary = `----bench${randomBytes(8).toString('hex')}`
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
    `Content-Type: ${type}\r\n\r\n`, 'latin1')
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1')
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: data => Buffer.concat([head, data, tail]) }
}

export interface StoredFile { userId: string, fileName: string, size: number }

/** True when a raw (UTF-8 decoded) body is a WebP: RIFF, and WEBP followed by one of its VP8 chunks. */
export const looksLikeWebp = (body: string) => body.startsWith('RIFF') && body.includes('WEBPVP8')

/**
 * Uploads one photo (about 30 KB once the service has stored it as WebP) as the signed-in `token`, and checks the
 * file route answers its bytes: what `media-file` reads.
 */
export async function uploadBenchFile (base: string, token: string): Promise<StoredFile> {
  const png = await photo(700, 466, 2).png().toBuffer()
  const form = multipartFile('image', 'bench.png', 'image/png')
  const response = await fetch(`${base}/api/upload/image`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType },
    body: form.body(png)
  })
  const upload = await response.json().catch(() => null) as { key?: unknown, size?: unknown } | null
  if (response.status !== 201 || typeof upload?.key !== 'string' || typeof upload.size !== 'number') {
    throw new Error(`uploading the bench file: ${response.status} ${JSON.stringify(upload)}`)
  }
  const [, userId, fileName] = upload.key.split('/')
  const file = await fetch(`${base}/uploads/${userId}/${fileName}`)
  const bytes = Buffer.from(await file.arrayBuffer())
  if (file.status !== 200 || bytes.length !== upload.size || file.headers.get('content-type') !== 'image/webp') {
    throw new Error(`reading the bench file back: ${file.status}, ${bytes.length} bytes of ${file.headers.get('content-type')}`)
  }
  const { width, format } = await sharp(bytes).metadata()
  if (format !== 'webp' || width !== 700) throw new Error(`the bench file is a ${format} ${width} px wide`)
  return { userId, fileName, size: bytes.length }
}

/** Files under `<uploadsDir>/<userId>/` for these users. */
export function storedFiles (uploadsDir: string, userIds: string[]): number {
  let n = 0
  for (const id of userIds) {
    const dir = path.join(uploadsDir, id)
    if (existsSync(dir)) n += readdirSync(dir).length
  }
  return n
}

/** null when the users' media rows and stored files agree (one file per row, at least `responses` of them), else what differs. */
export async function mediaProblem (sql: postgres.Sql, uploadsDir: string, userIds: string[], responses: number): Promise<string | null> {
  const [{ n }] = await sql<Array<{ n: number }>>`select count(*)::int as n from media where user_id = any(${userIds})`
  const files = storedFiles(uploadsDir, userIds)
  if (n !== files) return `${n} media rows but ${files} stored files`
  if (n < responses) return `${n} media rows for ${responses} answered uploads`
  return null
}

/** Removes the users' media rows and their files: the dataset as seeded. */
export async function removeMedia (sql: postgres.Sql, uploadsDir: string, userIds: string[]): Promise<void> {
  await sql`delete from media where user_id = any(${userIds})`
  for (const id of userIds) rmSync(path.join(uploadsDir, id), { recursive: true, force: true })
}
