// Recipes through the API.
import type { FastifyInstance } from 'fastify'

/** Creates a recipe through the API as `user` and returns it. */
export async function createRecipe (app: FastifyInstance, user: { token: string }, fields: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/recipes',
    headers: { authorization: `Bearer ${user.token}` },
    payload: { title: 'Test recipe', ingredients: ['1 cup flour'], ...fields }
  })
  if (res.statusCode !== 201) throw new Error(`recipe creation failed: ${res.statusCode} ${res.body}`)
  return JSON.parse(res.body).recipe
}

/** Changes some fields of `user`'s recipe through the API and returns it. */
export async function patchRecipe (app: FastifyInstance, user: { token: string }, id: string, fields: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await app.inject({ method: 'PATCH', url: `/api/recipes/${id}`, headers: { authorization: `Bearer ${user.token}` }, payload: fields })
  if (res.statusCode !== 200) throw new Error(`recipe update failed: ${res.statusCode} ${res.body}`)
  return JSON.parse(res.body).recipe
}
