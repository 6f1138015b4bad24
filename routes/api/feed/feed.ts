// The activity feed: recipes from the people you follow, newest first, with cursor pagination.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from 'typebox'
import { validationError } from '../../../lib/errors.js'
import { sendJson } from '../../../lib/raw-json.js'
import { currentUser } from '../../../plugins/app/auth.js'
import { Nullable, ref } from '../../../schemas/common.js'
import { Recipe } from '../../../schemas/recipes.js'

const encode = (cursor: { createdAt: string, id: string }) => Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString('base64url')

/** PostgreSQL's text form of a timestamptz in UTC, e.g. 2026-11-22 03:54:01.123456+00 (the only form we hand out). */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?\+00$/
const ID = /^[A-Za-z0-9_-]{1,64}$/

/** A cursor this API returned, or a 400: every part is checked before it reaches the database. */
function decode (cursor: string): { createdAt: string, id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[]
    if (typeof createdAt === 'string' && typeof id === 'string' && ID.test(id)) {
      const parts = TIMESTAMP.exec(createdAt)
      if (parts != null && !Number.isNaN(Date.parse(`${parts[1]}-${parts[2]}-${parts[3]}T${parts[4]}:${parts[5]}:${parts[6]}Z`))) return { createdAt, id }
    }
  } catch {}
  throw validationError(['cursor: is not a cursor this API returned'])
}

const FeedPage = Type.Object({ recipes: Type.Array(ref(Recipe)), nextCursor: Nullable(Type.String()) }, { description: 'Up to `limit` recipes and the cursor of the next page' })

const feed: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get('/', {
    schema: {
      operationId: 'feed.get',
      summary: 'Recipes from people you follow, newest first',
      description: 'Cursor-paged rather than page-numbered, so new recipes never shift a page: pass `nextCursor` back as ' +
        '`cursor` for the next page; it is null on the last page.',
      querystring: Type.Object({
        cursor: Type.Optional(Type.String({ maxLength: 200 })),
        limit: Type.Integer({ minimum: 1, maximum: 50, default: 12 })
      }),
      response: { 200: FeedPage }
    }
  }, async (request, reply) => {
    const { cursor, limit } = request.query
    const { recipes, next } = await fastify.recipeService.feed(currentUser(request).id, cursor == null ? null : decode(cursor), limit)
    // The recipes' JSON was written by PostgreSQL (repositories/recipes.ts): sent as it is.
    return await sendJson<Static<typeof FeedPage>>(reply, { recipes, nextCursor: next == null ? null : encode(next) })
  })
}

export default feed
