// Recipes as anonymous visitors see them (shared links, search engines, the web app before sign-in), kept as the JSON
// text sent. Reading and rendering a recipe cost about twice the primary-key read the detail is measured against
// (README, "Benchmarks"); a kept copy costs no query.
// Never stale after a write: triggers announce every change an anonymous view shows on `recipe_cache`
// (db/migrations/0026), and every instance drops its copies as they commit. A write answered by this instance waits
// until the announcements of its commit have arrived (`settle`, an onSend hook of writes), so its client reads its own
// write; other instances follow within the notification's delivery. While the channel is down nothing is kept.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { LRUCache } from 'lru-cache'
import { RawJson } from '../../../lib/raw-json.js'
import type { RecipeView } from '../../../schemas/recipes.js'

declare module 'fastify' {
  interface FastifyInstance {
    recipeViewCache: ReturnType<typeof createRecipeViewCache>
  }
  interface FastifyContextConfig {
    /**
     * The route parameter naming the one recipe whose anonymous view the write may change, when it changes no other
     * (likes): its answer waits for its announcements only while a copy of that recipe is kept or being rendered.
     */
    changesRecipe?: string
  }
}

/** Bytes of JSON text kept (a recipe is 1-10 kB; the largest allowed, about 200 kB). */
const MAX_BYTES = 16 * 1024 * 1024
/** Only bounds how long an entry nobody reads stays: announcements, not age, keep entries current. */
const TTL_MS = 10 * 60 * 1000
const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

interface Entry { view: RawJson<RecipeView>, authorId: string }

export function createRecipeViewCache (fastify: FastifyInstance) {
  const entries = new LRUCache<string, Entry>({ maxSize: MAX_BYTES, sizeCalculation: entry => entry.view.json.length + 100, ttl: TTL_MS })
  // Moves with every announcement: a render that began before one may hold what it announced, so it is not kept.
  let generation = 0
  /** Renders under way, per recipe id. */
  const rendering = new Map<string, number>()
  let queued: Promise<boolean> | null = null

  function dropAll (): void {
    generation++
    entries.clear()
  }

  const channel = fastify.dbChannel('recipe_cache', {
    onMessage: payload => {
      generation++
      const id = payload.slice(2)
      if (payload.startsWith('r:')) entries.delete(id)
      else if (payload.startsWith('u:')) {
        const theirs = [...entries.entries()].filter(([, entry]) => entry.authorId === id)
        for (const [key] of theirs) entries.delete(key)
      } else dropAll()
    },
    onReset: dropAll
  })

  return {
    /** Whether copies are kept and served (the channel listens). */
    get listening () { return channel.listening },

    /** The recipe's anonymous view, rendered by `read` (null: not visible) unless a current copy is kept. */
    async anonymous (id: string, read: () => Promise<RecipeView | null>): Promise<RawJson<RecipeView> | null> {
      if (channel.listening) {
        const kept = entries.get(id)
        if (kept != null) return kept.view
      }
      const began = generation
      rendering.set(id, (rendering.get(id) ?? 0) + 1)
      try {
        const recipe = await read()
        if (recipe == null) return null
        const view = new RawJson<RecipeView>(JSON.stringify(recipe))
        if (channel.listening && generation === began) entries.set(id, { view, authorId: recipe.author.id })
        return view
      } finally {
        const left = rendering.get(id)! - 1
        if (left === 0) rendering.delete(id)
        else rendering.set(id, left)
      }
    },

    /**
     * Returns once no kept copy predates this instance's commits so far (every copy is dropped if that cannot be
     * known). `recipeId`: the commits changed no view but that recipe's, so with no copy of it kept or being rendered
     * there is nothing to wait for (a render that starts now reads after them). A like storm then sends no tokens.
     */
    async settle (recipeId?: string): Promise<void> {
      if (entries.size === 0 && rendering.size === 0) return
      if (recipeId != null && !entries.has(recipeId) && !rendering.has(recipeId)) return
      // Writes answered in one turn of the event loop share one token, sent after all of their commits.
      queued ??= new Promise<boolean>(resolve => {
        setImmediate(() => {
          queued = null
          resolve(channel.sync())
        })
      })
      if (!await queued) dropAll()
    }
  }
}

export default fp(async fastify => {
  const cache = createRecipeViewCache(fastify)
  fastify.decorate('recipeViewCache', cache)
  // Before a write's answer leaves, this instance has heard what it changed (read-your-writes for its client). A
  // callback hook: every read passes through it, and an async one would cost each a promise.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (READS.has(request.method) || reply.statusCode >= 400) {
      done(null, payload)
      return
    }
    const changed = request.routeOptions.config.changesRecipe
    cache.settle(changed == null ? undefined : (request.params as Record<string, string>)[changed]).then(() => { done(null, payload) }, done)
  })
}, { name: 'recipe-view-cache', dependencies: ['db-channels'] })
