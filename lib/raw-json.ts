// JSON text that PostgreSQL built, sent as it is. The listing and its search spent most of their CPU parsing rows into
// objects and serialising them again (README, "Benchmarks"); PostgreSQL writes the same JSON in the statement that
// reads the rows. The hot pages keep it as the bytes PostgreSQL sent (a column read in postgres.js's raw mode): a
// page's JSON decoded into a string lived on V8's heap long enough to be promoted, and the old generation it filled
// set off a full collection every few hundred milliseconds under load.
import type { FastifyReply } from 'fastify'

/** JSON encoding a `T`, as UTF-8 bytes or text. `T` is only for the compiler: the JSON is whatever the statement built. */
export class RawJson<T> {
  declare readonly encodes: T
  constructor (readonly json: string | Uint8Array) {}

  /** The JSON as a string (decoded when it is bytes). */
  get text (): string {
    return typeof this.json === 'string' ? this.json : Buffer.from(this.json.buffer, this.json.byteOffset, this.json.byteLength).toString()
  }
}

/** `T` with any of its properties given as RawJson of that property's type. */
export type WithRawJson<T> = { [K in keyof T]: T[K] | RawJson<T[K]> }

/**
 * The JSON of an object whose values are plain (JSON.stringify) or RawJson (embedded as they are): text, or bytes when
 * a value is bytes (the text around them is encoded once, the bytes are copied once).
 */
export function objectJson<T extends object> (fields: WithRawJson<T>): string | Buffer {
  const chunks: Array<string | Uint8Array> = []
  let text = ''
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue
    text += `${text === '' && chunks.length === 0 ? '{' : ','}${JSON.stringify(key)}:`
    if (!(value instanceof RawJson)) text += JSON.stringify(value)
    else if (typeof value.json === 'string') text += value.json
    else {
      chunks.push(text, value.json)
      text = ''
    }
  }
  if (chunks.length === 0) return text === '' ? '{}' : text + '}'
  chunks.push(text + '}')
  return Buffer.concat(chunks.map(chunk => typeof chunk === 'string' ? Buffer.from(chunk) : chunk))
}

/** Sends `fields` (objectJson) as the response body: JSON text or bytes skip the route's response serializer. */
export async function sendJson<T extends object> (reply: FastifyReply, fields: WithRawJson<T>): Promise<FastifyReply> {
  return await reply.type('application/json; charset=utf-8').send(objectJson(fields))
}
