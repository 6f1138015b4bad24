// Search by ingredients: every statement is measured (bench: ai-search), so they are hot/ingredient-search.ts. The
// ranking is lib/ingredient-names.ts.
import fp from 'fastify-plugin'
import { containing, containingBoth, covering, keys, mostLiked, recipes } from './hot/ingredient-search.js'

declare module 'fastify' {
  interface FastifyInstance {
    ingredientSearchRepository: typeof ingredientSearchRepository
  }
}

export const ingredientSearchRepository = { keys, mostLiked, covering, containing, containingBoth, recipes }

export default fp(async fastify => {
  fastify.decorate('ingredientSearchRepository', ingredientSearchRepository)
}, { name: 'ingredient-search-repository' })
