// What the bench sends: the service's hot paths and the ceilings they are compared with, each with the check every
// response must pass. Names are what BENCH_ONLY takes.
import {
  CEILING_LIST_NAME, groceryListProblem, mealPlanProblem, newListProblem, PLANNED_MEALS, plannedWeekPath, plannedWeekProblem, WEEK, type Household
} from './households.js'
import { IMPORT_PAGE_INGREDIENTS, IMPORT_PAGE_TITLE, IMPORT_PAGE_URL, importPage } from './import-page.js'
import type { Load, Step } from './load.js'
import { looksLikeWebp, multipartFile, UPLOAD_SIZE, type StoredFile } from './media.js'
import { AUTHORS, COMMON_TERM, RARE_TERM, READER_ID, STORM_USERS, ZERO_TERM, authorId, isListed, recipeId, stormId, type Shape } from './seed.js'

export type CeilingName = 'list' | 'search' | 'pk' | 'detail' | 'hello' | 'bcrypt' | 'file' | 'sharp' | 'mealplan' | 'planned' | 'grocery' | 'from-plan' | 'extract'

export interface Scenario {
  name: string
  label: string
  /** What runs against the service; for `login-detail`, the flood (the detail latency runs beside it). */
  load: Load
  ceiling?: CeilingName
  /** Requests per second at 50 connections. */
  throughput: boolean
  /** p50/p99 (and the service's event-loop delay) at 10 connections. */
  latency: boolean
  /** Check like_count = count(likes) after it, then remove the storm users' likes. */
  writesLikes?: boolean
  /** Check the storm users' media rows against their stored files after it, then remove both. */
  writesMedia?: boolean
  /** Check the storm users' grocery lists after each of its runs (and its ceiling's), then remove them. */
  writesGroceryLists?: boolean
  /** Connections of its runs (and its ceiling's) when not the usual 50 and 10. */
  connections?: { throughput: number, latency: number }
}

/** What the scenarios need from the running service and the dataset. */
export interface Runtime {
  shape: Shape
  readerToken: string
  /** Tokens of the storm users, by number. */
  stormTokens: string[]
  /** Usernames the login flood cycles through (never two requests for one account at once). */
  loginUsers: string[]
  password: string
  /** Set when a media scenario runs: the file `media-file` reads, and the n-th distinct JPEG `media-upload` sends. */
  media?: { file: StoredFile, jpeg: (n: number) => Buffer }
  /** Set when a household scenario runs: the reader's week (bench/households.ts). */
  household?: Household
  /** Set when an admin scenario runs: the bench admin's token (POST /api/admin/auth/login). */
  adminToken?: string
}

/**
 * Uploads at once: the service decodes 2 images at a time and queues 8 more (services/media.ts), answering 503 past
 * that, so more connections would measure its refusals. 8 keeps every request admitted.
 */
export const UPLOAD_CONNECTIONS = 8

type Body = any

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const isRecipe = (r: Body) => r != null && typeof r.id === 'string' && typeof r.title === 'string' && typeof r.author?.username === 'string'
const mentions = (r: Body, term: string) =>
  String(r.title).toLowerCase().includes(term) || (Array.isArray(r.ingredients) && r.ingredients.some((i: Body) => String(i?.text).toLowerCase().includes(term)))

/** What the reader has in the kitchen for `ai-search`: the main of 1 in 12 recipes and 4 of the 16 pantry items. */
export const PANTRY_SEARCH = ['chicken', 'garlic', 'onion', 'lemon', 'rice']
/** A ranked page of search-by-ingredients: null, or what is wrong. */
function ingredientMatchesProblem (body: Body): string | null {
  if (body?.success !== true || !Array.isArray(body.recipes)) return 'not a search envelope'
  if (body.recipes.length !== 12) return `${body.recipes.length} matches, expected 12`
  let previous = Infinity
  for (const match of body.recipes) {
    if (!isRecipe(match.recipe)) return 'a match without its recipe'
    if (!(match.matchScore >= 0 && match.matchScore <= 1) || match.matchScore > previous) return `score ${match.matchScore} out of order`
    if (!Array.isArray(match.matchedIngredients) || match.matchedIngredients.length === 0) return 'a match without matched ingredients'
    previous = match.matchScore
  }
  return null
}

/** Imports at once: the service queues 32 pages behind its extraction threads and answers 503 past that. */
export const IMPORT_CONNECTIONS = 16
const importBody = JSON.stringify({ url: IMPORT_PAGE_URL, html: importPage() })
/** The import preview of bench/import-page.ts: null, or what is wrong. */
function importPreviewProblem (preview: Body): string | null {
  if (preview?.title !== IMPORT_PAGE_TITLE) return `title ${JSON.stringify(preview?.title)}`
  if (preview.ingredients?.length !== IMPORT_PAGE_INGREDIENTS) return `${preview.ingredients?.length} ingredients`
  return preview.instructions?.length === 7 && preview.totalTime === 40 ? null : 'steps or times wrong'
}

/** A page of `size` recipes: null, or what is wrong. */
function recipePage (body: Body, size: number, page = 1): string | null {
  if (!Array.isArray(body?.recipes)) return 'no recipes array'
  if (body.recipes.length !== size) return `${body.recipes.length} recipes, expected ${size}`
  if (!body.recipes.every(isRecipe)) return 'a recipe without id, title or author'
  if (body.pagination != null && body.pagination.page !== page) return `page ${body.pagination.page}, expected ${page}`
  return null
}

/** Listed recipes spread over the whole dataset (detail requests cycle through them). */
export function detailIds (shape: Shape, count = 1000): string[] {
  const ids: string[] = []
  for (let k = 0; ids.length < count && k < shape.recipes; k++) {
    const i = (k * 7919 + 11) % shape.recipes
    if (isListed(i)) ids.push(recipeId(i))
  }
  return ids
}

/** The newest listed recipes: what a front page shows and what a like storm hits. */
export function hotIds (shape: Shape, count = 20): string[] {
  const ids: string[] = []
  for (let i = shape.recipes - 1; ids.length < count && i >= 0; i--) if (isListed(i)) ids.push(recipeId(i))
  return ids
}

const expectedRare = 10

/**
 * The analytics report: null, or what is wrong. Checks what the bench never changes (recipes, users), the shapes, and
 * that the top list is the most liked listed recipes in order; like counts move with the write scenarios, so the
 * totals of likes are not compared (the report may be up to 60 s old).
 */
export function analyticsProblem (body: Body, shape: Shape): string | null {
  const users = AUTHORS + 1 + shape.fans + STORM_USERS
  if (body?.totals?.recipes !== shape.recipes) return `totals.recipes ${body?.totals?.recipes}, expected ${shape.recipes}`
  if (body.totals.users !== users) return `totals.users ${body.totals.users}, expected ${users}`
  if (!Array.isArray(body.daily) || body.daily.length !== 30) return `daily has ${body.daily?.length} days`
  const top = body.topRecipes
  if (!Array.isArray(top) || top.length !== 10) return `topRecipes has ${top?.length} recipes`
  if (!top.every((r: Body) => /^r[0-9]+$/.test(r.id) && isListed(Number(r.id.slice(1))))) return 'a top recipe that is not listed'
  if (top.some((r: Body, i: number) => i > 0 && r.likeCount > top[i - 1].likeCount)) return 'topRecipes not by likes'
  return typeof body.generatedAt === 'string' && typeof body.usage?.thisMonth?.period === 'string' ? null : 'no generatedAt or usage'
}

/** GET /api/nutrition/recipes/:id, anonymous, of the same 1,000 recipes in turn as `detail`. */
function nutritionStep (shape: Shape): Step {
  const ids = detailIds(shape)
  let n = 0
  return {
    path: `/api/nutrition/recipes/${ids[0]}`,
    setup: context => {
      context.id = ids[n++ % ids.length]
      return { path: `/api/nutrition/recipes/${String(context.id)}` }
    },
    check: (body, context) => {
      const nutrition = body?.nutrition
      if (nutrition?.recipeId !== context.id || typeof nutrition.title !== 'string') return `nutrition of ${nutrition?.recipeId}, expected ${String(context.id)}`
      if (nutrition.perServing == null || nutrition.total == null || nutrition.sources == null) return 'no perServing, total or sources'
      if (!Array.isArray(nutrition.ingredients) || nutrition.ingredients.length === 0 || nutrition.ingredients.length !== nutrition.coverage?.lines) {
        return `${nutrition.ingredients?.length} ingredients for ${nutrition.coverage?.lines} lines`
      }
      return nutrition.ingredients.every((i: Body) => typeof i?.text === 'string' && typeof i.status === 'string') ? null : 'an ingredient without text or status'
    }
  }
}

function detailStep (shape: Shape): Step {
  const ids = detailIds(shape)
  let n = 0
  return {
    path: `/api/recipes/${ids[0]}`,
    setup: context => {
      context.id = ids[n++ % ids.length]
      return { path: `/api/recipes/${String(context.id)}` }
    },
    check: (body, context) => body?.recipe?.id === context.id ? null : `recipe ${body?.recipe?.id}, expected ${String(context.id)}`
  }
}

/** POST like then DELETE like of one (storm user, hot recipe) pair per cycle; pairs rotate so no two connections share one. */
function likeToggle (runtime: Runtime): Load {
  const hot = hotIds(runtime.shape)
  const users = runtime.stormTokens.length
  let n = 0
  const path = (context: Record<string, unknown>) => `/api/social/recipes/${String(context.recipe)}/like`
  return [
    {
      method: 'POST',
      path: `/api/social/recipes/${hot[0]}/like`,
      setup: context => {
        const i = n++
        context.user = i % users
        context.recipe = hot[Math.floor(i / users) % hot.length]
        return { path: path(context), headers: bearer(runtime.stormTokens[i % users]) }
      },
      check: body => body?.liked === true && Number.isInteger(body.likeCount) && body.likeCount >= 1 ? null : `like answered ${JSON.stringify(body)}`
    },
    {
      method: 'DELETE',
      path: `/api/social/recipes/${hot[0]}/like`,
      setup: context => ({ path: path(context), headers: bearer(runtime.stormTokens[Number(context.user)]) }),
      check: body => body?.liked === false && (body.likeCount === null || Number.isInteger(body.likeCount)) ? null : `unlike answered ${JSON.stringify(body)}`
    }
  ]
}

/** 70% reads of lists and details, 15% search, 10% feed, 5% like/unlike, interleaved on every connection. */
function mixed (runtime: Runtime): Load {
  const ids = detailIds(runtime.shape)
  const hot = hotIds(runtime.shape)
  const terms = [COMMON_TERM, 'curry', RARE_TERM, 'salad']
  const users = runtime.stormTokens.length
  let n = 0
  let writes = 0
  const slots = ['list', 'list', 'list', 'list', 'list', 'list', 'list', 'detail', 'detail', 'detail', 'detail', 'detail', 'detail', 'detail',
    'search', 'search', 'search', 'feed', 'feed', 'write']
  return [{
    path: '/api/recipes',
    setup: context => {
      const i = n++
      const kind = slots[i % slots.length]
      context.kind = kind
      if (kind === 'list') return { method: 'GET', path: `/api/recipes?page=${1 + (i % 5)}`, headers: {} }
      if (kind === 'detail') {
        context.id = ids[i % ids.length]
        return { method: 'GET', path: `/api/recipes/${String(context.id)}`, headers: {} }
      }
      if (kind === 'search') return { method: 'GET', path: `/api/recipes?search=${terms[i % terms.length]}`, headers: {} }
      if (kind === 'feed') return { method: 'GET', path: '/api/feed', headers: bearer(runtime.readerToken) }
      const w = writes++
      const pair = Math.floor(w / 2)
      context.kind = w % 2 === 0 ? 'like' : 'unlike'
      return {
        method: w % 2 === 0 ? 'POST' : 'DELETE',
        path: `/api/social/recipes/${hot[Math.floor(pair / users) % hot.length]}/like`,
        headers: bearer(runtime.stormTokens[pair % users])
      }
    },
    check: (body, context) => {
      switch (context.kind) {
        case 'detail': return body?.recipe?.id === context.id ? null : 'wrong recipe'
        case 'like': return body?.liked === true ? null : `like answered ${JSON.stringify(body)}`
        case 'unlike': return body?.liked === false ? null : `unlike answered ${JSON.stringify(body)}`
        case 'feed': return Array.isArray(body?.recipes) && body.recipes.every(isRecipe) ? null : 'feed without recipes'
        default: return Array.isArray(body?.recipes) && body.recipes.every(isRecipe) && body.pagination != null ? null : `${String(context.kind)} without recipes`
      }
    }
  }]
}

/** A stored WebP, as the service's file route or the bare file server sends it. */
function webpFile (file: StoredFile, etag: boolean): Step['check'] {
  return (body, _context, headers) => {
    if (headers['content-type'] !== 'image/webp') return `content-type ${headers['content-type']}`
    if (Number(headers['content-length']) !== file.size) return `content-length ${headers['content-length']}, expected ${file.size}`
    if (etag && headers.etag !== `"${file.fileName}"`) return `etag ${headers.etag}`
    return looksLikeWebp(String(body)) ? null : 'not a WebP body'
  }
}

/** POST /api/upload/image of a distinct 1200x800 JPEG per request, storm users in turn (each upload a new image: 201). */
function upload (runtime: Runtime): Load {
  const { jpeg } = runtime.media!
  const form = multipartFile('image', 'photo.jpg', 'image/jpeg')
  const users = runtime.stormTokens.length
  let n = 0
  return [{
    method: 'POST',
    path: '/api/upload/image',
    status: 201,
    setup: context => {
      const i = n++
      context.user = stormId(i % users)
      return { headers: { ...bearer(runtime.stormTokens[i % users]), 'content-type': form.contentType }, body: form.body(jpeg(i)) }
    },
    check: (body, context) => {
      const prefix = `uploads/${String(context.user)}/`
      if (typeof body?.key !== 'string' || !body.key.startsWith(prefix) || !String(body.url).endsWith(body.key)) return `key ${body?.key}, expected ${prefix}...`
      if (body.width !== UPLOAD_SIZE.width || body.height !== UPLOAD_SIZE.height) return `${body.width}x${body.height}`
      return body.contentType === 'image/webp' && Number.isInteger(body.size) && body.size > 0 ? null : `upload answered ${JSON.stringify(body)}`
    }
  }]
}

/**
 * The load of issue 11's table and targets (list, search, feed, me, detail, healthz, login, likes, the mixed load):
 * the bench measures it first, and the RSS target (<= 250 MB "under this load") is its peak.
 */
export const ISSUE_LOAD: ReadonlySet<string> = new Set(['list', 'list-signed-in', 'search-common', 'search-rare', 'search-zero', 'feed',
  'me', 'detail', 'detail-same-statement', 'healthz', 'deep-page', 'login', 'login-detail', 'like-storm', 'mixed'])

export function scenarios (runtime: Runtime): Scenario[] {
  const { shape } = runtime
  const reader = bearer(runtime.readerToken)
  let login = 0
  return [
    {
      name: 'list',
      label: 'recipe list, page 1, anonymous',
      load: [{ path: '/api/recipes', check: body => recipePage(body, 12) }],
      ceiling: 'list',
      throughput: true,
      latency: true
    },
    {
      name: 'list-signed-in',
      label: 'recipe list, page 1, signed in (reader)',
      load: [{ path: '/api/recipes', headers: reader, check: body => recipePage(body, 12) }],
      ceiling: 'list',
      throughput: true,
      latency: true
    },
    {
      name: 'search-common',
      label: `search "${COMMON_TERM}" (about 1 in 8 recipes)`,
      load: [{
        path: `/api/recipes?search=${COMMON_TERM}`,
        check: body => recipePage(body, 12) ?? (body.recipes.every((r: Body) => mentions(r, COMMON_TERM)) ? null : `a result without "${COMMON_TERM}"`)
      }],
      ceiling: 'search',
      throughput: true,
      latency: true
    },
    {
      name: 'search-rare',
      label: `search "${RARE_TERM}" (${expectedRare} recipes)`,
      load: [{
        path: `/api/recipes?search=${RARE_TERM}`,
        check: body => recipePage(body, expectedRare) ?? (body.recipes.every((r: Body) => mentions(r, RARE_TERM)) ? null : `a result without "${RARE_TERM}"`)
      }],
      throughput: false,
      latency: true
    },
    {
      name: 'search-zero',
      label: `search "${ZERO_TERM}" (no recipe)`,
      load: [{ path: `/api/recipes?search=${ZERO_TERM}`, check: body => recipePage(body, 0) ?? (body.pagination?.total === 0 ? null : 'total is not 0') }],
      throughput: false,
      latency: true
    },
    {
      name: 'feed',
      label: `feed of the reader (follows all ${AUTHORS} authors)`,
      load: [{
        path: '/api/feed',
        headers: reader,
        check: body => recipePage(body, 12) ?? (typeof body.nextCursor === 'string' ? null : 'no nextCursor')
      }],
      ceiling: 'list',
      throughput: true,
      latency: true
    },
    {
      name: 'popular',
      label: 'popular recipes, anonymous (GET /api/recipes/popular: the 12 most liked)',
      load: [{
        path: '/api/recipes/popular',
        check: body => recipePage(body, 12) ?? (body.recipes.every((r: Body, i: number) => i === 0 || r.likeCount <= body.recipes[i - 1].likeCount) ? null : 'not most liked first')
      }],
      ceiling: 'list',
      throughput: true,
      latency: true
    },
    {
      name: 'me',
      label: 'GET /api/auth/me (reader)',
      load: [{ path: '/api/auth/me', headers: reader, check: body => body?.user?.id === READER_ID ? null : `user ${body?.user?.id}` }],
      ceiling: 'pk',
      throughput: true,
      latency: true
    },
    {
      name: 'unread-count',
      label: 'GET /api/notifications/unread-count (reader; what every client polls)',
      load: [{ path: '/api/notifications/unread-count', headers: reader, check: body => Number.isInteger(body?.unreadCount) ? null : `answered ${JSON.stringify(body)}` }],
      ceiling: 'pk',
      throughput: true,
      latency: true
    },
    {
      name: 'analytics-config',
      label: 'GET /api/analytics/config, anonymous (every page load of the web app)',
      load: [{ path: '/api/analytics/config', check: body => typeof body?.enabled === 'boolean' ? null : `answered ${JSON.stringify(body)}` }],
      ceiling: 'hello',
      throughput: true,
      latency: true
    },
    {
      name: 'push-preferences',
      label: 'GET /api/push-notifications/preferences (reader)',
      load: [{ path: '/api/push-notifications/preferences', headers: reader, check: body => body?.preferences?.like === true ? null : `answered ${JSON.stringify(body)}` }],
      ceiling: 'pk',
      throughput: true,
      latency: true
    },
    {
      name: 'detail',
      label: 'recipe detail, anonymous (1,000 recipes in turn)',
      load: [detailStep(shape)],
      ceiling: 'pk',
      throughput: true,
      latency: true
    },
    {
      // No target: how far the service's detail is from the same statement served bare (the target is against /pk).
      name: 'detail-same-statement',
      label: 'recipe detail, anonymous, against its own statement served bare',
      load: [detailStep(shape)],
      ceiling: 'detail',
      throughput: true,
      latency: false
    },
    {
      name: 'healthz',
      label: 'GET /healthz',
      load: [{ path: '/healthz', check: body => body?.status === 'ok' ? null : 'status is not ok' }],
      ceiling: 'hello',
      throughput: true,
      latency: true
    },
    {
      name: 'deep-page',
      label: 'recipe list, page 400',
      load: [{ path: '/api/recipes?page=400', check: body => recipePage(body, 12, 400) }],
      throughput: false,
      latency: true
    },
    {
      name: 'login',
      label: `login flood (${runtime.loginUsers.length} users in turn)`,
      load: [{
        method: 'POST',
        path: '/api/auth/login',
        setup: context => {
          context.username = runtime.loginUsers[login++ % runtime.loginUsers.length]
          return { body: JSON.stringify({ identifier: context.username, password: runtime.password }) }
        },
        check: (body, context) => typeof body?.token === 'string' && body.user?.username === context.username ? null : `login answered ${JSON.stringify(body).slice(0, 100)}`
      }],
      ceiling: 'bcrypt',
      throughput: true,
      latency: true
    },
    {
      name: 'login-detail',
      label: 'recipe detail p99 during a login flood',
      load: [detailStep(shape)],
      throughput: false,
      latency: true
    },
    {
      name: 'like-storm',
      label: `like/unlike storm (${runtime.stormTokens.length} users, ${hotIds(shape).length} newest recipes)`,
      load: likeToggle(runtime),
      ceiling: 'hello',
      throughput: true,
      latency: true,
      writesLikes: true
    },
    {
      name: 'mixed',
      label: 'mixed: 70% list/detail, 15% search, 10% feed, 5% like/unlike',
      load: mixed(runtime),
      throughput: true,
      latency: true,
      writesLikes: true
    },
    ...(runtime.media == null
      ? []
      : [
          {
            name: 'media-file',
            label: `stored image, GET /uploads/<userId>/<id>.webp (${Math.round(runtime.media.file.size / 1024)} KB)`,
            load: [{ path: `/uploads/${runtime.media.file.userId}/${runtime.media.file.fileName}`, raw: true, check: webpFile(runtime.media.file, true) }],
            ceiling: 'file' as const,
            throughput: true,
            latency: true
          },
          {
            name: 'media-upload',
            label: `image upload, ${UPLOAD_SIZE.width}x${UPLOAD_SIZE.height} JPEG (${Math.round(runtime.media.jpeg(0).length / 1024)} KB), ${UPLOAD_CONNECTIONS} connections`,
            load: upload(runtime),
            ceiling: 'sharp' as const,
            throughput: true,
            latency: true,
            writesMedia: true,
            connections: { throughput: UPLOAD_CONNECTIONS, latency: UPLOAD_CONNECTIONS }
          }
        ]),
    ...(runtime.household == null ? [] : householdScenarios(runtime, runtime.household)),
    ...(runtime.adminToken == null
      ? []
      : [{
          name: 'admin-analytics',
          label: 'admin analytics report, GET /api/admin/analytics (bench admin; computed once a minute, cached between)',
          load: [{ path: '/api/admin/analytics', headers: bearer(runtime.adminToken), check: (body: Body) => analyticsProblem(body, shape) }],
          ceiling: 'pk' as const,
          throughput: true,
          latency: true
        }]),
    {
      name: 'ai-search',
      label: `search by ingredients (${PANTRY_SEARCH.join(', ')}), POST /api/ai-recipes/search-by-ingredients, 12 best (reader)`,
      load: [{
        method: 'POST',
        path: '/api/ai-recipes/search-by-ingredients',
        headers: { ...reader, 'content-type': 'application/json' },
        body: JSON.stringify({ ingredients: PANTRY_SEARCH, limit: 12 }),
        check: ingredientMatchesProblem
      }],
      ceiling: 'list',
      throughput: true,
      latency: true
    },
    {
      name: 'import-preview',
      label: `recipe import preview of a captured ${Math.round(importBody.length / 1024)} kB page, POST /api/recipe-import/preview (reader)`,
      load: [{
        method: 'POST',
        path: '/api/recipe-import/preview',
        headers: { ...reader, 'content-type': 'application/json' },
        body: importBody,
        check: body => body?.success === true && Array.isArray(body.duplicates) ? importPreviewProblem(body.preview) : 'not a preview envelope'
      }],
      ceiling: 'extract',
      throughput: true,
      latency: true,
      // The service reads at most EXTRACT_LIMITS.queued pages waiting (503 beyond): stay within it.
      connections: { throughput: IMPORT_CONNECTIONS, latency: IMPORT_CONNECTIONS }
    },
    {
      name: 'nutrition-recipe',
      label: 'recipe nutrition, GET /api/nutrition/recipes/:id, anonymous (1,000 recipes in turn)',
      load: [nutritionStep(shape)],
      ceiling: 'pk',
      throughput: true,
      latency: true
    }
  ]
}

/** The households' hot reads as the reader, and gathering a grocery list from the reader's plan as the storm users. */
function householdScenarios (runtime: Runtime, household: Household): Scenario[] {
  const reader = bearer(runtime.readerToken)
  const users = runtime.stormTokens.length
  let n = 0
  return [
    {
      name: 'mealplan-detail',
      label: `meal plan with its ${PLANNED_MEALS} planned meals, GET /api/mealplans/:id (reader)`,
      load: [{ path: `/api/mealplans/${household.mealPlanId}`, headers: reader, check: body => mealPlanProblem(body, household) }],
      ceiling: 'mealplan',
      throughput: true,
      latency: true
    },
    {
      name: 'planned-week',
      label: `planned meals of a week, GET /api/planned-meals?from=${WEEK.from}&to=${WEEK.to} (reader)`,
      load: [{ path: plannedWeekPath, headers: reader, check: body => plannedWeekProblem(body, household) }],
      ceiling: 'planned',
      throughput: true,
      latency: true
    },
    {
      name: 'grocery-detail',
      label: `grocery list of ${household.items} items, GET /api/grocerylists/:id (reader)`,
      load: [{ path: `/api/grocerylists/${household.groceryListId}`, headers: reader, check: body => groceryListProblem(body, household) }],
      ceiling: 'grocery',
      throughput: true,
      latency: true
    },
    {
      name: 'grocery-from-plan',
      label: `grocery list from the plan (${household.fromPlanItems} items), POST /api/grocerylists/from-mealplan (${users} users in turn)`,
      load: [{
        method: 'POST',
        path: '/api/grocerylists/from-mealplan',
        status: 201,
        setup: context => {
          const i = n++
          context.user = stormId(i % users)
          return { headers: bearer(runtime.stormTokens[i % users]), body: JSON.stringify({ mealPlanId: household.mealPlanId }) }
        },
        check: (body, context) => newListProblem(body, household, String(context.user))
      }],
      ceiling: 'from-plan',
      throughput: true,
      latency: true,
      writesGroceryLists: true
    }
  ]
}

/** The ceiling servers' routes (bench/ceiling.ts), checked like the service's. */
export function ceilingLoads (runtime: Pick<Runtime, 'media' | 'household' | 'shape'>): Record<CeilingName, Load> {
  const authors = Array.from({ length: AUTHORS }, (_, i) => authorId(i))
  const recipeIds = detailIds(runtime.shape)
  let n = 0
  let details = 0
  let images = 0
  let lists = 0
  const { media, household } = runtime
  return {
    list: [{ path: '/list', check: body => Array.isArray(body?.recipes) && body.recipes.length === 12 ? null : 'not 12 recipes' }],
    search: [{
      path: `/search?q=${COMMON_TERM}`,
      check: body => Array.isArray(body?.recipes) && body.recipes.length === 12 && body.recipes.every((r: Body) => mentions(r, COMMON_TERM)) ? null : 'not 12 matching recipes'
    }],
    pk: [{
      path: `/pk/${authors[0]}`,
      setup: context => {
        context.id = authors[n++ % authors.length]
        return { path: `/pk/${String(context.id)}` }
      },
      check: (body, context) => body?.user?.id === context.id ? null : 'wrong user'
    }],
    detail: [{
      path: `/detail/${recipeIds[0]}`,
      setup: context => {
        context.id = recipeIds[details++ % recipeIds.length]
        return { path: `/detail/${String(context.id)}` }
      },
      check: (body, context) => body?.recipe?.id === context.id ? null : 'wrong recipe'
    }],
    hello: [{ path: '/', check: body => body?.hello === 'world' ? null : 'not hello' }],
    bcrypt: [{ path: '/bcrypt', check: body => body?.ok === true ? null : 'bcrypt compare failed' }],
    extract: [{
      method: 'POST',
      path: '/extract',
      headers: { 'content-type': 'application/json' },
      body: importBody,
      check: body => importPreviewProblem(body?.preview)
    }],
    file: media == null ? [] : [{ path: `/file/${media.file.userId}/${media.file.fileName}`, raw: true, check: webpFile(media.file, false) }],
    sharp: media == null
      ? []
      : [{
          method: 'POST',
          path: '/sharp',
          setup: () => ({ headers: { 'content-type': 'image/jpeg' }, body: media.jpeg(images++) }),
          check: body => body?.width === UPLOAD_SIZE.width && body.height === UPLOAD_SIZE.height && body.size > 0 ? null : `sharp answered ${JSON.stringify(body)}`
        }],
    mealplan: household == null ? [] : [{ path: `/mealplan/${household.mealPlanId}`, check: body => mealPlanProblem(body, household) }],
    planned: household == null ? [] : [{ path: `/planned?from=${WEEK.from}&to=${WEEK.to}`, check: body => plannedWeekProblem(body, household) }],
    grocery: household == null ? [] : [{ path: `/grocery/${household.groceryListId}`, check: body => groceryListProblem(body, household) }],
    'from-plan': household == null
      ? []
      : [{
          method: 'POST',
          path: '/from-plan',
          status: 201,
          setup: context => {
            context.user = stormId(lists++ % STORM_USERS)
            return { body: JSON.stringify({ mealPlanId: household.mealPlanId, userId: context.user }) }
          },
          check: (body, context) => newListProblem(body, household, String(context.user)) ??
            (body.groceryList.name === CEILING_LIST_NAME ? null : `list named ${body.groceryList.name}`)
        }]
  }
}

export const CEILING_LABELS: Record<CeilingName, string> = {
  list: 'bare /list (12 listed recipes + author)',
  search: `bare /search?q=${COMMON_TERM} (title like)`,
  pk: 'bare /pk (user by primary key)',
  detail: 'bare /detail (the service\'s detail statement: recipe, author, tags)',
  hello: 'bare Fastify hello',
  bcrypt: 'bare bcrypt compare (cost 12)',
  file: 'bare Fastify sending the file (fs.readFile)',
  sharp: 'bare sharp pipeline (decode, rotate, resize, WebP 82)',
  mealplan: `bare /mealplan/:id (plan + ${PLANNED_MEALS} meals, one statement)`,
  planned: 'bare /planned?from=&to= (the week\'s meals + total, one statement)',
  grocery: 'bare /grocery/:id (list + items, one statement)',
  'from-plan': 'bare /from-plan (one read, the same merge, one insert statement)',
  extract: 'bare /extract (the same extractor on the event loop)'
}
