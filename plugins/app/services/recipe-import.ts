// Recipe import: a page (fetched safely, rendered by the headless browser when its recipe needs scripts, or captured
// by the caller's browser), pasted text or a photo (OCR) becomes a preview or a recipe. Every route passes the same
// gate (feature flag, monthly import allowance, recipe limit, a per-user rate), and every attempt is logged.
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import {
  ImportLimitReached, LegacyImportForbidden, NoRecipeFound, pageNotFetched, RecipeImportDisabled, RecipeLimitReached,
  UrlNotAllowed, validationError
} from '../../../lib/errors.js'
import { previewFromInput, type PreviewInput, type RecipePreview } from '../../../lib/recipe-import/preview.js'
import { FetchFailed, safeFetch, UrlNotAllowed as Refused } from '../../../lib/recipe-import/safe-fetch.js'
import { sourceKey, sourceKeyPrefix } from '../../../lib/recipe-import/source-url.js'
import { detached } from '../../../lib/request-scope.js'
import { RECIPE_LIMITS, type RecipeInput, type RecipeView } from '../../../schemas/recipes.js'
import { createImportImages } from './import-image.js'
import { checkedImage, createPhotoReader, readText, usable } from './import-text.js'
import { usagePeriod } from './plans.js'
import { boundedIngredients, boundedMinutes, boundedServings, cutText } from './recipe-fields.js'

declare module 'fastify' {
  interface FastifyInstance {
    recipeImportService: ReturnType<typeof createRecipeImportService>
  }
}

const MAX_DUPLICATES = 10
/** An identical import within this time returns the recipe the first one made (repeats, double submits, races). */
export const IMPORT_REPEAT_SECONDS = 600

type Source = 'url' | 'html' | 'preview' | 'text' | 'image' | 'legacy'
interface Read { preview: RecipePreview, method: string }
export interface Imported { recipe: RecipeView, created: boolean, recipeId: string, method: string }

/** The creation key of an import: the page's source key, or a hash of the text, image or preview. */
const importKey = (kind: string, content: string | Buffer) => `import:${kind}:${createHash('sha256').update(content).digest('base64url')}`
const pageKey = (url: string, saveAsDraft: boolean) => importKey(saveAsDraft ? 'url' : 'url-published', sourceKey(url) ?? url)

/** The recipe a preview becomes: a draft (unpublished) unless `saveAsDraft` is false; fields cut to the recipe bounds. */
export function previewToRecipe (preview: RecipePreview, saveAsDraft: boolean): RecipeInput & { title: string } {
  const http = (url: string | null) => url != null && /^https?:\/\//i.test(url) && url.length <= 2000 ? url : null
  return {
    title: cutText(preview.title, RECIPE_LIMITS.title) ?? 'Imported recipe',
    description: cutText(preview.description, RECIPE_LIMITS.description),
    published: !saveAsDraft,
    cuisine: cutText(preview.cuisine, 100),
    prepTime: boundedMinutes(preview.prepTime),
    cookTime: boundedMinutes(preview.cookTime),
    totalTime: boundedMinutes(preview.totalTime),
    servings: boundedServings(preview.servings),
    ingredients: boundedIngredients(preview.ingredients),
    instructions: preview.instructions.slice(0, RECIPE_LIMITS.instructions).map((step, i) => ({
      step: i + 1,
      text: step.text.slice(0, 5000),
      ...(step.section != null && step.section.trim() !== '' && { section: step.section.trim().slice(0, 100) })
    })),
    nutrition: preview.nutrition == null ? null : Object.fromEntries(Object.entries(preview.nutrition).slice(0, 50).map(([k, v]) => [k.slice(0, 64), v])),
    imageUrl: http(preview.imageUrl),
    sourceUrl: http(preview.sourceUrl),
    tags: [...new Set([...preview.tags, ...(preview.category != null ? [preview.category] : [])]
      .map(tag => tag.trim().toLowerCase().slice(0, RECIPE_LIMITS.tagName)).filter(tag => tag !== ''))].slice(0, RECIPE_LIMITS.tags)
  }
}

/** Scripts may still fill it: a page with no ingredients or no steps is worth a browser render. */
const complete = (preview: RecipePreview | null) => usable(preview) && preview.ingredients.length > 0 && preview.instructions.length > 0

export function createRecipeImportService (fastify: FastifyInstance) {
  const { db, importsRepository: imports, planService: plans } = fastify
  const extract = fastify.extractor.extract
  const allowOrigins = fastify.config.importAllowOrigins
  const readPhoto = createPhotoReader(fastify)
  const images = createImportImages(fastify)

  /** Strict auth is the route's; then the flag, the monthly allowance and the recipe limit (exact again at creation). */
  async function gate (userId: string): Promise<void> {
    // Imports (previews included) a user may start per hour, on top of the plan's monthly allowance.
    await fastify.rateLimits.perUser('recipe-import', userId, fastify.config.rateLimit.importsPerHour, 3600)
    if (!(await plans.isEnabled('recipe-import', userId))) throw new RecipeImportDisabled()
    const [{ limits }, used, recipes] = await Promise.all([
      plans.forUser(userId),
      fastify.plansRepository.usage(db, userId, usagePeriod()),
      fastify.recipesRepository.countByAuthor(db, userId)
    ])
    if (limits.imports != null && used.imports >= limits.imports) throw new ImportLimitReached({ limit: limits.imports, used: used.imports })
    if (limits.recipes != null && recipes >= limits.recipes) throw new RecipeLimitReached({ limit: limits.recipes, used: recipes })
  }

  /** Runs one import attempt and logs it, whatever happens. */
  async function logged<T extends { recipeId?: string, method?: string }> (
    userId: string, source: Source, mode: 'preview' | 'create', url: string | null, work: () => Promise<T>
  ): Promise<T> {
    const started = performance.now()
    // Detached: an import whose client left is logged too (as failed: its remaining database work never started).
    const log = async (status: 'success' | 'failed' | 'refused', extra: { error?: string, recipeId?: string, method?: string }) => {
      await detached(async () => await imports.log(db, {
        userId,
        source,
        mode,
        url: url?.slice(0, 2000) ?? null,
        status,
        error: extra.error?.slice(0, 500) ?? null,
        recipeId: extra.recipeId ?? null,
        method: extra.method ?? null,
        durationMs: Math.round(performance.now() - started)
      })).catch(err => { fastify.log.error({ err }, 'import log not written') })
    }
    try {
      const result = await work()
      await log('success', result)
      return result
    } catch (err) {
      const refused = err instanceof UrlNotAllowed || err instanceof RecipeImportDisabled || err instanceof ImportLimitReached || err instanceof RecipeLimitReached
      await log(refused ? 'refused' : 'failed', { error: err instanceof Error ? err.message : String(err) })
      throw err
    }
  }

  /** The page's recipe: captured HTML as given; otherwise fetched safely and, when scripts must fill it, rendered. */
  async function readPage (url: string, html: string | undefined): Promise<Read> {
    if (html != null) {
      const preview = await extract(html, url)
      if (!usable(preview)) throw new NoRecipeFound()
      return { preview: withSource(preview, url), method: 'captured' }
    }
    let page
    try {
      page = await safeFetch(url, { allowOrigins })
    } catch (err) {
      if (err instanceof Refused) throw new UrlNotAllowed(err.message.replace(/^URL not allowed:?\s*/, '') || undefined)
      if (err instanceof FetchFailed) throw pageNotFetched(err.message)
      throw err
    }
    const fetchedHtml = page.body.toString('utf8')
    const fetched = await extract(fetchedHtml, page.url)
    if (complete(fetched) || !fastify.browser.available) {
      if (!usable(fetched)) throw new NoRecipeFound()
      return { preview: withSource(fetched, url), method: 'fetch' }
    }
    try {
      const rendered = await extract(await fastify.browser.render(page.url, fetchedHtml), page.url)
      if (usable(rendered) && (!usable(fetched) || complete(rendered))) return { preview: withSource(rendered, url), method: 'browser' }
    } catch (err) {
      fastify.log.warn({ err, url }, 'browser render failed; using the fetched page')
    }
    if (!usable(fetched)) throw new NoRecipeFound()
    return { preview: withSource(fetched, url), method: 'fetch' }
  }

  const withSource = (preview: RecipePreview, url: string): RecipePreview => ({ ...preview, sourceUrl: preview.sourceUrl ?? url })

  /** The caller's recipes from the same page (the key ignores tracking parameters, fragments, www.). */
  async function duplicates (userId: string, url: string | null) {
    const key = url == null ? null : sourceKey(url)
    if (key == null) return []
    const rows = await imports.recipesFromSource(db, userId, sourceKeyPrefix(key), 50)
    return rows.filter(row => sourceKey(row.sourceUrl) === key).slice(0, MAX_DUPLICATES)
      .map(row => ({ ...row, createdAt: row.createdAt.toISOString() }))
  }

  /**
   * Creates the recipe, or returns the one an identical import made within IMPORT_REPEAT_SECONDS. Its picture is our
   * copy of the preview's image address, which is kept as `sourceImageUrl` (import-image.ts); `imageGiven`: the caller
   * sent that address (from-preview).
   */
  async function create (userId: string, preview: RecipePreview, saveAsDraft: boolean, key: string, method: string, imageGiven = false): Promise<Imported> {
    const image = await images.copy(userId, preview.imageUrl, imageGiven)
    let made: { recipe: RecipeView, created: boolean }
    try {
      made = await fastify.recipeService.createOnce({ id: userId }, { ...previewToRecipe(preview, saveAsDraft), imageUrl: image.imageUrl }, {
        spends: 'imports', key, withinSeconds: IMPORT_REPEAT_SECONDS, sourceImageUrl: image.sourceImageUrl
      })
    } catch (err) {
      await image.discard()
      throw err
    }
    const { recipe, created } = made
    if (!created) await image.discard()
    return { recipe, created, recipeId: recipe.id, method: created ? method : 'repeat' }
  }

  async function fromPage (userId: string, source: Source, url: string, html: string | undefined, saveAsDraft: boolean): Promise<Imported> {
    await gate(userId)
    return await logged(userId, source, 'create', url, async () => {
      const { preview, method } = await readPage(url, html)
      return await create(userId, preview, saveAsDraft, pageKey(preview.sourceUrl ?? url, saveAsDraft), method)
    })
  }

  return {
    /** What the video import (services/video-import.ts) shares with the page import: one gate, log, duplicate and creation rule. */
    shared: { gate, logged, duplicates, create, pageKey },

    async preview (userId: string, url: string, html?: string) {
      await gate(userId)
      return await logged(userId, html != null ? 'html' : 'url', 'preview', url, async () => {
        const { preview, method } = await readPage(url, html)
        return { preview, duplicates: await duplicates(userId, preview.sourceUrl ?? url), method }
      })
    },

    async fromUrl (userId: string, url: string, html: string | undefined, saveAsDraft: boolean) {
      return await fromPage(userId, html != null ? 'html' : 'url', url, html, saveAsDraft)
    },

    /** The legacy route: the body's userId must be the caller's (decisions.md departure). */
    async legacy (userId: string, bodyUserId: string, url: string, saveAsDraft: boolean) {
      if (bodyUserId !== userId) throw new LegacyImportForbidden()
      return await fromPage(userId, 'legacy', url, undefined, saveAsDraft)
    },

    async fromPreview (userId: string, input: PreviewInput, saveAsDraft: boolean) {
      const preview = previewFromInput(input)
      if (preview.ingredients.length === 0 && preview.instructions.length === 0) {
        throw validationError(['preview: needs at least one ingredient or step'])
      }
      await gate(userId)
      return await logged(userId, 'preview', 'create', preview.sourceUrl, async () =>
        await create(userId, preview, saveAsDraft, importKey('preview', JSON.stringify([preview, saveAsDraft])), 'preview', true))
    },

    /** Pasted text read into a preview: nothing saved or spent, as the page preview (gate and hourly rate included). */
    async textPreview (userId: string, text: string) {
      await gate(userId)
      return await logged(userId, 'text', 'preview', null, async () => ({ preview: readText(text), method: 'text' }))
    },

    /** The text preview, saved. */
    async fromText (userId: string, text: string, saveAsDraft: boolean) {
      await gate(userId)
      return await logged(userId, 'text', 'create', null, async () =>
        await create(userId, readText(text), saveAsDraft, importKey('text', JSON.stringify([text.trim(), saveAsDraft])), 'text'))
    },

    /** A photo checked as an upload (before OCR, outside the log: a refused file is a validation error), read by OCR. */
    async imagePreview (userId: string, image: string, mimeType?: string) {
      await gate(userId)
      const checked = await checkedImage(image, mimeType)
      return await logged(userId, 'image', 'preview', null, async () => ({ preview: await readPhoto(checked), method: 'ocr' }))
    },

    /** The photo preview, saved. */
    async fromImage (userId: string, image: string, saveAsDraft: boolean, mimeType?: string) {
      await gate(userId)
      const checked = await checkedImage(image, mimeType)
      return await logged(userId, 'image', 'create', null, async () =>
        await create(userId, await readPhoto(checked), saveAsDraft, importKey(saveAsDraft ? 'image' : 'image-published', checked.sourceHash), 'ocr'))
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('recipeImportService', createRecipeImportService(fastify))
}, {
  name: 'recipe-import-service',
  dependencies: ['imports-repository', 'plan-service', 'plans-repository', 'recipe-service', 'recipes-repository', 'rate-limit', 'browser', 'extractor', 'media-service', 'media-repository', 'storage']
})
