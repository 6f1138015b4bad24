// JSON text that PostgreSQL built, sent as it is. The listing and its search spent most of their CPU parsing rows into
// objects and serialising them again (README, "Benchmarks"); PostgreSQL writes the same JSON in the statement that
// reads the rows.
import type { FastifyReply } from 'fastify'

/** JSON text encoding a `T`. `T` is only for the compiler: the text is whatever the statement built. */
export class RawJson<T> {
  declare readonly encodes: T
  constructor (readonly text: string) {}
}

/** `T` with any of its properties given as RawJson of that property's type. */
export type WithRawJson<T> = { [K in keyof T]: T[K] | RawJson<T[K]> }

/** The JSON text of an object whose values are plain (JSON.stringify) or RawJson (embedded as they are). */
export function objectJson<T extends object> (fields: WithRawJson<T>): string {
  let text = ''
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue
    text += `${text === '' ? '{' : ','}${JSON.stringify(key)}:${value instanceof RawJson ? value.text : JSON.stringify(value)}`
  }
  return text === '' ? '{}' : text + '}'
}

/** Sends `fields` (objectJson) as the response body: a JSON string skips the route's response serializer. */
export async function sendJson<T extends object> (reply: FastifyReply, fields: WithRawJson<T>): Promise<FastifyReply> {
  return await reply.type('application/json; charset=utf-8').send(objectJson(fields))
}
