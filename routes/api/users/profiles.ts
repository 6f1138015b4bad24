// Profiles: the caller's own, anyone's public one, search, recent authors, a user's recipes and follow lists.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { described, ErrorRef, pagination, Pagination, PaginationQuery, ref } from '../../../schemas/common.js'
import { Recipe, RecipeResponse } from '../../../schemas/recipes.js'
import { ProfileBody, UsernameParams, UserPublic, UserRecipeParams, UserSearchQuery, UserSelf } from '../../../schemas/users.js'

const OwnProfile = (description: string) => Type.Object({ user: ref(UserSelf) }, { description })

const profiles: FastifyPluginAsyncTypebox = async fastify => {
  const users = fastify.userService

  fastify.get('/profile', {
    onRequest: fastify.authenticate,
    schema: { operationId: 'users.profile', summary: 'Your own profile with counts', response: { 200: OwnProfile('Your profile, with your email') } }
  }, async request => ({ user: await users.own(currentUser(request).id) }))

  fastify.put('/profile', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'users.updateProfile',
      summary: 'Update your profile',
      description: 'Only firstName, lastName, bio and location are taken; any other field is ignored.',
      body: ProfileBody,
      response: { 200: OwnProfile('Your profile as saved') }
    }
  }, async request => ({ user: await users.updateProfile(currentUser(request).id, request.body) }))

  fastify.get('/recent', {
    onRequest: fastify.optionalAuth,
    schema: {
      operationId: 'users.recent',
      summary: 'Active users with published recipes, most recently updated first',
      description: 'Not paged: the first `limit` (at most 50) users.',
      querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 50, default: 12 }) }),
      response: { 200: Type.Object({ users: Type.Array(ref(UserPublic)) }, { description: 'Up to `limit` users' }) }
    }
  }, async request => ({ users: await users.recent(request.query.limit, request.user?.id ?? null) }))

  fastify.get('/search', {
    onRequest: fastify.optionalAuth,
    schema: {
      operationId: 'users.search',
      summary: 'Find users by username or name',
      description: 'Not paged (interface.md): at most `limit` (50) users, verified first, then the closest matches; `total` ' +
        'counts every match. An empty query finds nobody.',
      querystring: UserSearchQuery,
      response: { 200: Type.Object({ users: Type.Array(ref(UserPublic)), total: Type.Integer(), query: Type.String() }, { description: 'The best matches and how many there are in all' }) }
    }
  }, async request => {
    const { q, query, limit } = request.query
    return await users.search(q ?? query ?? '', limit, request.user?.id ?? null)
  })

  fastify.get('/:username', {
    onRequest: fastify.optionalAuth,
    schema: {
      operationId: 'users.get',
      summary: 'A public profile with counts',
      description: 'Takes the username (case-insensitive), not the id. Inactive users are 404.',
      params: UsernameParams,
      response: { 200: Type.Object({ user: ref(UserPublic) }, { description: 'The profile' }), 404: ErrorRef }
    }
  }, async request => ({ user: await users.profile(request.params.username, request.user?.id ?? null) }))

  fastify.get('/:username/recipes', {
    onRequest: fastify.optionalAuth,
    schema: {
      operationId: 'users.recipes',
      summary: 'A user\'s recipes that the caller may see, newest first',
      params: UsernameParams,
      querystring: PaginationQuery,
      response: { 200: Type.Object({ recipes: Type.Array(ref(Recipe)), pagination: ref(Pagination) }, { description: 'A page of recipes' }), 404: ErrorRef }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await users.recipes(request.params.username, request.user?.id ?? null, page, limit)
    return { recipes: items, pagination: pagination(page, limit, total) }
  })

  fastify.get('/:username/recipes/:slug', {
    onRequest: fastify.optionalAuth,
    schema: {
      operationId: 'users.recipeBySlug',
      summary: 'One of a user\'s recipes by its slug',
      description: 'Slugs are unique per author. The same visibility rules as GET /api/recipes/{recipeId}: a recipe the caller may not see is 404.',
      params: UserRecipeParams,
      response: { 200: described('The recipe', RecipeResponse), 404: ErrorRef }
    }
  }, async request => ({ recipe: await users.recipe(request.params.username, request.params.slug, request.user?.id ?? null) }))

  for (const direction of ['followers', 'following'] as const) {
    fastify.get(`/:username/${direction}`, {
      onRequest: fastify.optionalAuth,
      schema: {
        operationId: `users.${direction}`,
        summary: direction === 'followers' ? 'Who follows the user, newest first' : 'Whom the user follows, newest first',
        description: 'Paged (departure from interface.md, which returns everyone at once).',
        params: UsernameParams,
        querystring: PaginationQuery,
        response: { 200: Type.Object({ users: Type.Array(ref(UserPublic)), pagination: ref(Pagination) }, { description: 'A page of users' }), 404: ErrorRef }
      }
    }, async request => {
      const { page, limit } = request.query
      const { items, total } = await users.connections(request.params.username, direction, request.user?.id ?? null, page, limit)
      return { users: items, pagination: pagination(page, limit, total) }
    })
  }
}

export default profiles
