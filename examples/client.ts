// A small app against the API, written the way an app developer would: types generated from the OpenAPI document
// with openapi-typescript, calls made with openapi-fetch, no casts. CI regenerates the types from the current
// document, compiles this file with `tsc --strict` and runs it against a started server (test/examples/client.test.ts),
// so a document change that would break such clients fails the build.
//
//   npm run example:types                      # writes examples/generated/api.d.ts from the document
//   API_URL=http://127.0.0.1:3000 npm run example
import { randomBytes } from 'node:crypto'
import createClient, { type Middleware } from 'openapi-fetch'
import type { components, paths } from './generated/api.js'

type Recipe = components['schemas']['Recipe']
type Ingredient = components['schemas']['Ingredient']

const baseUrl = process.env.API_URL ?? 'http://127.0.0.1:3000'

/** One client per signed-in user: the token goes in a middleware, as openapi-fetch recommends. */
function clientFor (token?: string) {
  const client = createClient<paths>({ baseUrl })
  if (token != null) {
    const auth: Middleware = { onRequest: ({ request }) => { request.headers.set('Authorization', `Bearer ${token}`) } }
    client.use(auth)
  }
  return client
}

/** The body of a successful call, or the API's error message as an exception. */
function ok<T> (result: { data?: T, error?: { error: string, details?: string[] }, response: Response }): T {
  if (result.data !== undefined) return result.data
  throw new Error(`${result.response.status} ${result.error?.error ?? ''} ${result.error?.details?.join('; ') ?? ''}`.trim())
}

async function signUp (name: string) {
  const anonymous = clientFor()
  const suffix = randomBytes(4).toString('hex')
  const credentials = { email: `${name}-${suffix}@example.com`, username: `${name}_${suffix}`, password: 'Example-pass1' }
  ok(await anonymous.POST('/api/auth/register', { body: { ...credentials, firstName: name } }))
  // Signing in again, as an app does on a new device.
  const { user, token } = ok(await anonymous.POST('/api/auth/login', { body: { identifier: credentials.email, password: credentials.password } }))
  return { user, api: clientFor(token) }
}

const cook = await signUp('cook')
const fan = await signUp('fan')
console.log(`signed up ${cook.user.username} and ${fan.user.username}`)

const { recipe } = ok(await cook.api.POST('/api/recipes', {
  body: {
    title: `Buttermilk pancakes ${randomBytes(3).toString('hex')}`,
    published: true,
    totalTime: 25,
    ingredients: ['1 1/2 cups flour', '2 tbsp sugar', { name: 'buttermilk', quantity: 1.25, unit: 'cups' }],
    instructions: ['Whisk the dry ingredients.', { text: 'Fold in the buttermilk; rest 5 minutes.' }],
    tags: ['breakfast']
  }
}))
const flour: Ingredient | undefined = recipe.ingredients.find(line => line.name === 'flour')
console.log(`created "${recipe.title}": ${recipe.ingredients.length} ingredients, flour ${flour?.quantity ?? '?'} ${flour?.unit ?? ''}`)

// page and limit have defaults, so a search needs nothing else.
const found = ok(await fan.api.GET('/api/recipes', { params: { query: { search: 'buttermilk pancakes', maxTime: 30 } } }))
const hit: Recipe | undefined = found.recipes.find(r => r.id === recipe.id)
if (hit == null) throw new Error('the new recipe is not found by its title')
console.log(`search found ${found.pagination.total} recipe(s), page ${found.pagination.page} of ${found.pagination.totalPages}`)

const liked = ok(await fan.api.POST('/api/social/recipes/{recipeId}/like', { params: { path: { recipeId: recipe.id } } }))
console.log(`liked: ${liked.liked}, likes ${liked.likeCount}`)

const { comment } = ok(await fan.api.POST('/api/comments/recipe/{recipeId}', {
  params: { path: { recipeId: recipe.id } },
  body: { content: 'Fluffy. I added blueberries.' }
}))
const thread = ok(await cook.api.GET('/api/comments/recipe/{recipeId}', { params: { path: { recipeId: recipe.id }, query: { limit: 5 } } }))
console.log(`commented "${comment.content}"; the recipe has ${thread.pagination.total} thread(s)`)

// Notifications are written in the background: poll briefly, as an app would refresh.
let kinds: string[] = []
for (let attempt = 0; attempt < 50 && !(kinds.includes('like') && kinds.includes('comment')); attempt++) {
  const { notifications, unreadCount } = ok(await cook.api.GET('/api/notifications', { params: { query: { unreadOnly: true } } }))
  kinds = notifications.map(n => n.type)
  if (unreadCount < 2) await new Promise(resolve => setTimeout(resolve, 100))
}
if (!kinds.includes('like') || !kinds.includes('comment')) throw new Error(`expected like and comment notifications, got [${kinds.join(', ')}]`)
const { updated } = ok(await cook.api.PUT('/api/notifications/read-all'))
console.log(`notifications: ${kinds.join(', ')}; marked ${updated} read`)

// Errors are typed too: an unknown recipe is a 404 with { error }.
const missing = await fan.api.GET('/api/recipes/{recipeId}', { params: { path: { recipeId: 'no-such-recipe' } } })
console.log(`unknown recipe: ${missing.response.status} ${missing.error?.error ?? ''}`)
console.log('example client: done')
