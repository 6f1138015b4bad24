// Profiles: the caller's own, anyone's public one, search, recent authors, and their follow lists.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { selfView } from '../../../plugins/app/accounts.js'
import { HttpError } from '../../../lib/errors.js'
import { ErrorRef, pagination, PaginationQuery, Pagination, ref } from '../../../schemas/common.js'
import { Recipe } from '../../../schemas/recipes.js'
import { TEXT_LIMITS, UserPublic, UserSelf } from '../../../schemas/users.js'

const UsernameParams = Type.Object({ username: Type.String({ minLength: 1, maxLength: 100 }) })
const UserList = Type.Object({ users: Type.Array(ref(UserPublic)) })

const ProfileBody = Type.Object({
  firstName: Type.Optional(Type.Union([Type.String({ maxLength: TEXT_LIMITS.firstName }), Type.Null()])),
  lastName: Type.Optional(Type.Union([Type.String({ maxLength: TEXT_LIMITS.lastName }), Type.Null()])),
  bio: Type.Optional(Type.Union([Type.String({ maxLength: TEXT_LIMITS.bio }), Type.Null()])),
  location: Type.Optional(Type.Union([Type.String({ maxLength: TEXT_LIMITS.location }), Type.Null()]))
})

const users: FastifyPluginAsyncTypebox = async fastify => {
  const repo = fastify.usersRepository

  async function own (userId: string) {
    const user = await repo.self(userId)
    if (user == null) throw new HttpError(404, 'User not found')
    return { user: selfView(user) }
  }

  async function userIdOr404 (username: string): Promise<string> {
    const id = await repo.idByUsername(username)
    if (id == null) throw new HttpError(404, 'User not found')
    return id
  }

  fastify.get('/profile', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Your own profile with counts', response: { 200: Type.Object({ user: ref(UserSelf) }) } }
  }, async request => await own(currentUser(request).id))

  fastify.put('/profile', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Update your profile',
      description: 'Only firstName, lastName, bio and location are taken; any other field is ignored.',
      body: ProfileBody,
      response: { 200: Type.Object({ user: ref(UserSelf) }) }
    }
  }, async request => {
    const userId = currentUser(request).id
    await repo.updateProfile(userId, request.body)
    return await own(userId)
  })

  fastify.get('/recent', {
    onRequest: fastify.optionalAuth,
    schema: {
      summary: 'Active users with published recipes, most recently updated first',
      querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 50, default: 12 }) }),
      response: { 200: UserList }
    }
  }, async request => ({ users: await repo.recent(request.query.limit, request.user?.id ?? null) }))

  fastify.get('/search', {
    onRequest: fastify.optionalAuth,
    schema: {
      summary: 'Find users by username or name',
      description: 'At most 50 users: verified first, then the closest matches.',
      querystring: Type.Object({
        q: Type.Optional(Type.String({ maxLength: 100 })),
        query: Type.Optional(Type.String({ maxLength: 100, description: 'Alias of q' })),
        limit: Type.Integer({ minimum: 1, maximum: 50, default: 20 })
      }),
      response: { 200: Type.Object({ users: Type.Array(ref(UserPublic)), total: Type.Integer(), query: Type.String() }) }
    }
  }, async request => {
    const query = (request.query.q ?? request.query.query ?? '').trim()
    if (query === '') return { users: [], total: 0, query }
    const result = await repo.search(query, request.query.limit, request.user?.id ?? null)
    return { ...result, query }
  })

  fastify.get('/:username', {
    onRequest: fastify.optionalAuth,
    schema: { summary: 'A public profile with counts', params: UsernameParams, response: { 200: Type.Object({ user: ref(UserPublic) }), 404: ErrorRef } }
  }, async request => {
    const user = await repo.byUsername(request.params.username, request.user?.id ?? null)
    if (user == null) throw new HttpError(404, 'User not found')
    return { user }
  })

  fastify.get('/:username/recipes', {
    onRequest: fastify.optionalAuth,
    schema: {
      summary: 'A user\'s recipes that the caller may see, newest first',
      params: UsernameParams,
      querystring: PaginationQuery,
      response: { 200: Type.Object({ recipes: Type.Array(ref(Recipe)), pagination: ref(Pagination) }), 404: ErrorRef }
    }
  }, async request => {
    const authorId = await userIdOr404(request.params.username)
    const { page, limit } = request.query
    const { recipes, total } = await fastify.recipesRepository.byAuthor(authorId, request.user?.id ?? null, page, limit)
    return { recipes, pagination: pagination(page, limit, total) }
  })

  for (const direction of ['followers', 'following'] as const) {
    fastify.get(`/:username/${direction}`, {
      onRequest: fastify.optionalAuth,
      schema: {
        summary: direction === 'followers' ? 'Everyone who follows the user, newest first' : 'Everyone the user follows, newest first',
        params: UsernameParams,
        response: { 200: UserList, 404: ErrorRef }
      }
    }, async request => {
      const { username } = request.params as { username: string }
      const userId = await userIdOr404(username)
      return { users: await repo.connections(userId, direction, request.user?.id ?? null) }
    })
  }
}

export default users
