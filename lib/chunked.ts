// Streamed documents (GDPR export, database backup) are produced piece by piece (a row, a separator); writing each
// piece would be thousands of tiny writes, so pieces are joined into chunks of about `size` characters.

export const CHUNK_CHARS = 64 * 1024

export async function * chunked (pieces: AsyncIterable<string>, size = CHUNK_CHARS): AsyncGenerator<string> {
  let buffer = ''
  for await (const piece of pieces) {
    buffer += piece
    if (buffer.length >= size) {
      yield buffer
      buffer = ''
    }
  }
  if (buffer !== '') yield buffer
}
