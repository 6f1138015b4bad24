// The recipe app's entry module: the API client, the session, the router and the browse screen. Everything goes
// through the proxy on this origin: /bff/auth/* for the session and /bff/api/* for the API. The session token lives in
// an httpOnly cookie this script never sees. Data from the API is only ever written as text (dom.js builds elements
// one by one; never innerHTML), so nothing it contains can become markup. The other screens are modules under
// /assets, loaded when first shown.
/* global location, history, Element, HTMLButtonElement, FormData, URLSearchParams */
import { h, field, select, picture, minutes } from './assets/dom.js'

const $ = id => document.getElementById(id)

/**
 * A same-origin JSON call; resolves to { status, body } (body null when there is none or it is not JSON). A FormData
 * body goes as multipart (uploads).
 */
export async function call (method, url, body) {
  const isForm = body instanceof FormData
  const response = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: body === undefined || isForm ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body)
  })
  let data = null
  try { data = await response.json() } catch { data = null }
  if (response.status === 401 && session.user != null && !url.startsWith('/bff/auth/')) expired()
  return { status: response.status, body: data }
}

/** Shows a short message in the live region (read out by screen readers). */
export function say (text, kind = 'info') {
  $('status').textContent = text
  $('status').dataset.kind = kind
}

/** The error of an answer, as the API words it. */
export function problem ({ status, body }) {
  const details = Array.isArray(body?.details) ? `: ${body.details.join('; ')}` : ''
  return `${typeof body?.error === 'string' ? body.error : `Request failed (${status})`}${details}`
}

/** Says what went wrong with an answer; true when it was one of `ok` (default: any 2xx). */
export function check (answer, ok) {
  const fine = ok == null ? answer.status >= 200 && answer.status < 300 : [].concat(ok).includes(answer.status)
  if (!fine) say(problem(answer), 'error')
  return fine
}

export function failed (err) {
  say(`Something went wrong: ${err?.message ?? err}`, 'error')
}

/** Runs an async handler from an event, reporting its failure, with the button (if any) disabled meanwhile. */
export function act (handler) {
  return event => {
    const button = event?.submitter ?? (event?.currentTarget instanceof HTMLButtonElement ? event.currentTarget : null)
    if (event?.type === 'submit') event.preventDefault()
    if (button != null) button.disabled = true
    Promise.resolve().then(() => handler(event)).catch(failed).finally(() => { if (button != null && button.isConnected) button.disabled = false })
  }
}

// ---- session ----

export const session = { user: null }

function showShell () {
  const signedIn = session.user != null
  document.body.dataset.state = signedIn ? 'signed-in' : 'signed-out'
  $('main-nav').hidden = !signedIn
  $('account').hidden = !signedIn
  $('username').textContent = signedIn ? session.user.username : ''
}

export async function setUser (user) {
  session.user = user
  showShell()
  if (user != null) refreshBadge().catch(() => {})
}

function expired () {
  session.user = null
  showShell()
  say('Your session has ended: sign in again', 'error')
  render().catch(failed)
}

async function signIn () {
  const answer = await call('POST', '/bff/auth/login', { identifier: $('identifier').value, password: $('password').value })
  $('password').value = ''
  if (!check(answer, 200)) return
  await setUser(answer.body.user)
  say('Signed in')
  const back = new URLSearchParams(location.search).get('next')
  await navigate(back != null && back.startsWith('/') && !back.startsWith('//') ? back : location.pathname === '/signin' ? '/' : location.pathname + location.search, true)
}

async function refresh () {
  const answer = await call('POST', '/bff/auth/refresh')
  if (answer.status === 401) return expired()
  say(answer.status === 200 ? 'Session renewed' : problem(answer), answer.status === 200 ? 'info' : 'error')
}

async function signOut () {
  const answer = await call('POST', '/bff/auth/logout')
  if (!check(answer, 200)) return
  session.user = null
  showShell()
  $('screen').replaceChildren()
  await navigate('/', true)
  say('Signed out')
}

/** The unread count beside "Notifications" in the menu. */
export async function refreshBadge () {
  const answer = await call('GET', '/bff/api/notifications/unread-count')
  if (answer.status !== 200) return
  const count = answer.body.unreadCount
  $('unread-badge').textContent = String(count)
  $('unread-badge').hidden = count === 0
  $('notifications-link').setAttribute('aria-label', count === 0 ? 'Notifications' : `Notifications, ${count} unread`)
}

// ---- router ----

const screens = name => import(`./assets/${name}.js`)
/** [pattern, loader, open to signed-out visitors]; `:name` matches one path segment. */
const ROUTES = [
  ['/', async () => ({ render: browse }), false],
  ['/signin', async () => ({ render: signInScreen }), true],
  ['/register', async () => (await screens('account')).register, true],
  ['/forgot-password', async () => (await screens('account')).forgot, true],
  ['/reset-password', async () => (await screens('account')).reset, true],
  ['/recipes/new', async () => (await screens('editor')).create, false],
  ['/recipes/:id/edit', async () => (await screens('editor')).edit, false],
  ['/recipes/:id', async () => (await screens('recipe')).show, false],
  ['/import', async () => (await screens('importer')).show, false],
  ['/collections', async () => (await screens('collections')).list, false],
  ['/collections/:id', async () => (await screens('collections')).detail, false],
  ['/feed', async () => (await screens('social')).feed, false],
  ['/notifications', async () => (await screens('social')).notifications, false],
  ['/users/:username', async () => (await screens('social')).profile, false],
  ['/plan', async () => (await screens('plan')).plans, false],
  ['/plan/:id', async () => (await screens('plan')).week, false],
  ['/grocery/:id', async () => (await screens('plan')).grocery, false],
  ['/settings', async () => (await screens('settings')).show, false]
]

function match (path) {
  const parts = path.split('/').filter(Boolean)
  for (const [pattern, load, open] of ROUTES) {
    const want = pattern.split('/').filter(Boolean)
    if (want.length !== parts.length) continue
    const params = {}
    if (want.every((segment, i) => segment.startsWith(':') ? (params[segment.slice(1)] = decodeURIComponent(parts[i])) !== '' : segment === parts[i])) {
      return { load, open, params }
    }
  }
  return null
}

let renderCount = 0

/** Draws the screen of the current URL. Signed-out visitors see the sign-in form for anything not open to them. */
export async function render () {
  const current = ++renderCount
  // Set once the screen is drawn with its data (tests and scripts can wait for it).
  delete document.body.dataset.ready
  const route = match(location.pathname)
  const screen = $('screen')
  $('signin-view').hidden = true
  if (route == null) {
    screen.replaceChildren(h('section', { class: 'card' }, heading('Not found'), h('p', {}, 'There is nothing at this address. '), h('a', { href: '/' }, 'Back to the recipes')))
    return focusHeading()
  }
  if (session.user == null && !route.open) return signInScreen()
  if (session.user != null && ['/signin', '/register'].includes(location.pathname)) return await navigate('/', true)
  const screenModule = await route.load()
  if (current !== renderCount) return
  screen.replaceChildren()
  screen.setAttribute('aria-busy', 'true')
  const ctx = {
    params: route.params,
    query: new URLSearchParams(location.search),
    user: session.user,
    screen,
    /** False once another screen replaced this one (late answers are dropped). */
    live: () => current === renderCount
  }
  try {
    await screenModule.render(ctx)
  } finally {
    if (current === renderCount) screen.removeAttribute('aria-busy')
  }
  if (current !== renderCount) return
  focusHeading()
  document.body.dataset.ready = location.pathname + location.search
  for (const link of document.querySelectorAll('#main-nav a')) {
    const here = link.getAttribute('href') === location.pathname
    if (here) link.setAttribute('aria-current', 'page')
    else link.removeAttribute('aria-current')
  }
  if (session.user != null) refreshBadge().catch(() => {})
}

let firstRender = true
/** Moves focus to the new screen's heading, so keyboard and screen-reader users start there. */
function focusHeading () {
  const title = document.querySelector('#view h1:not([hidden] h1)')
  if (title != null) document.title = `${title.textContent} · Recipes`
  if (firstRender) { firstRender = false; return }
  title?.focus({ preventScroll: false })
}

export function heading (text, attrs = {}) {
  return h('h1', { tabindex: '-1', ...attrs }, text)
}

/**
 * The one resource a screen shows (GET `url`): its body, or null once the screen has said why not: gone, a card named
 * `missing.title` with a link back (`missing.href`, `missing.link`); another failure, the error said as usual.
 */
export async function loadResource (ctx, url, missing) {
  const res = await call('GET', url)
  if (!ctx.live()) return null
  if (res.status === 404) {
    ctx.screen.append(h('section', { class: 'card' }, heading(missing.title), h('a', { href: missing.href }, missing.link)))
    return null
  }
  return check(res, 200) ? res.body : null
}

/** Goes to `url` (same origin) and draws it. */
export async function navigate (url, replace = false) {
  if (replace) history.replaceState(null, '', url)
  else history.pushState(null, '', url)
  await render()
}

function onLinkClick (event) {
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null
  if (link == null || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  if (link.target !== '' || link.hasAttribute('download')) return
  const url = new URL(link.href)
  if (url.origin !== location.origin || url.pathname.startsWith('/bff/') || url.pathname.startsWith('/uploads/')) return
  event.preventDefault()
  say('')
  navigate(url.pathname + url.search).catch(failed)
}

// ---- sign in (the form is in index.html) ----

async function signInScreen () {
  $('screen').replaceChildren()
  $('signin-view').hidden = false
  focusHeading()
  document.body.dataset.ready = location.pathname + location.search
}

// ---- browse: the recipe list, search, filters, pages; quick add ----

/** A recipe in a list: picture, title link, author, time, likes with a like/unlike button. */
export function recipeCard (recipe) {
  const item = h('li', { class: 'recipe-card', dataset: { recipeId: recipe.id } })
  const count = h('span', { class: 'like-count', 'aria-label': 'likes' }, String(recipe.likeCount ?? 0))
  const like = h('button', { type: 'button', class: 'like-button quiet', 'aria-pressed': String(recipe.isLiked === true) }, recipe.isLiked ? 'Unlike' : 'Like')
  like.addEventListener('click', act(async () => {
    const liked = like.getAttribute('aria-pressed') === 'true'
    const answer = await call(liked ? 'DELETE' : 'POST', `/bff/api/social/recipes/${encodeURIComponent(recipe.id)}/like`)
    if (!check(answer, 200)) return
    if (answer.body.likeCount != null) count.textContent = String(answer.body.likeCount)
    else count.textContent = String(Math.max(0, Number(count.textContent) - 1))
    like.setAttribute('aria-pressed', String(!liked))
    like.textContent = liked ? 'Like' : 'Unlike'
    say(liked ? 'Like removed' : 'Liked')
  }))
  const time = minutes(recipe.totalTime ?? ((recipe.prepTime ?? 0) + (recipe.cookTime ?? 0)))
  const href = `/recipes/${encodeURIComponent(recipe.id)}`
  item.append(
    h('a', { href, class: 'card-image', tabindex: '-1', 'aria-hidden': 'true' }, picture(recipe.imageUrl, '')),
    h('div', { class: 'card-body' },
      h('h3', {}, h('a', { href, class: 'recipe-title' }, recipe.title)),
      h('p', { class: 'meta' },
        h('span', { class: 'recipe-author' }, `by ${recipe.author?.username ?? '?'}`),
        time != null ? ` · ${time}` : null,
        recipe.cuisine ? ` · ${recipe.cuisine}` : null,
        recipe.ratingCount > 0 ? ` · ★ ${recipe.averageRating.toFixed(1)}` : null,
        recipe.published === false ? ' · draft' : null),
      h('p', { class: 'likes' }, count, ' ', like))
  )
  return item
}

/** Previous / next page buttons for a `pagination` answer; `go(page)` shows that page. */
export function pager (pagination, go) {
  if (pagination == null || pagination.totalPages <= 1) return h('nav', { class: 'pager', hidden: true })
  return h('nav', { class: 'pager', 'aria-label': 'Pages' },
    h('button', { type: 'button', class: 'quiet', disabled: !pagination.hasPrev, onclick: () => go(pagination.page - 1) }, '← Previous'),
    h('span', { class: 'page-of' }, `Page ${pagination.page} of ${pagination.totalPages}`),
    h('button', { type: 'button', class: 'quiet', disabled: !pagination.hasNext, onclick: () => go(pagination.page + 1) }, 'Next →'))
}

const TIMES = [['', 'Any time'], ['15', '15 min or less'], ['30', '30 min or less'], ['60', '1 hour or less'], ['120', '2 hours or less']]
const SORTS = [['newest', 'Newest'], ['popular', 'Most liked'], ['rating', 'Best rated'], ['title', 'A to Z'], ['oldest', 'Oldest']]
const PAGE_SIZE = 12

async function browse (ctx) {
  const q = ctx.query
  const [tags, cuisines] = await Promise.all([call('GET', '/bff/api/tags?limit=50'), call('GET', '/bff/api/recipes/cuisines')])
  const search = h('input', { type: 'search', name: 'q', value: q.get('q') ?? '', maxlength: '200', placeholder: 'Title or ingredient' })
  const tag = select({ name: 'tag' }, [['', 'Any tag'], ...(tags.body?.tags ?? []).map(t => [t.slug, t.name])], q.get('tag'))
  const cuisine = select({ name: 'cuisine' }, [['', 'Any cuisine'], ...(cuisines.body?.cuisines ?? []).map(c => [c.cuisine, c.cuisine])], q.get('cuisine'))
  const time = select({ name: 'maxTime' }, TIMES, q.get('maxTime'))
  const sort = select({ name: 'sort' }, SORTS, q.get('sort') ?? 'newest')
  const filters = h('form', { id: 'search-form', class: 'filters', role: 'search' },
    field('Search recipes', search), field('Tag', tag), field('Cuisine', cuisine), field('Time', time), field('Sort by', sort),
    h('button', { type: 'submit', id: 'search-button' }, 'Search'))
  filters.addEventListener('submit', act(async () => {
    const next = new URLSearchParams()
    for (const [name, value] of new FormData(filters)) if (value !== '' && !(name === 'sort' && value === 'newest')) next.set(name, String(value))
    await navigate(`/${next.size > 0 ? `?${next}` : ''}`)
  }))

  const list = h('ul', { id: 'recipe-list', class: 'recipe-grid', 'aria-live': 'polite' })
  const summary = h('p', { class: 'summary' })
  const pages = h('div')
  async function load (page) {
    const params = new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE) })
    if (q.get('q')) params.set('search', q.get('q'))
    for (const name of ['tag', 'cuisine', 'maxTime', 'sort']) if (q.get(name)) params.set(name, q.get(name))
    const answer = await call('GET', `/bff/api/recipes?${params}`)
    if (!ctx.live() || !check(answer, 200)) return
    list.replaceChildren(...answer.body.recipes.map(recipeCard))
    document.body.dataset.recipes = String(answer.body.recipes.length)
    const total = answer.body.pagination.total
    summary.textContent = total === 0 ? 'No recipe matches.' : `${total} recipe${total === 1 ? '' : 's'}`
    pages.replaceChildren(pager(answer.body.pagination, p => { load(p).catch(failed) }))
  }

  const title = h('input', { id: 'title', name: 'title', required: true, maxlength: '200' })
  const ingredients = h('textarea', { id: 'ingredients', name: 'ingredients', required: true, rows: '4' })
  const quick = h('form', { id: 'create-form' },
    h('h2', {}, 'Quick add'),
    field('Title', title), field('Ingredients, one per line', ingredients),
    h('button', { id: 'create-button', type: 'submit' }, 'Create'),
    h('p', { class: 'hint' }, 'Add steps, a photo and tags later, or use ', h('a', { href: '/recipes/new' }, 'the full form'), '.'))
  quick.addEventListener('submit', act(async () => {
    const lines = ingredients.value.split('\n').map(line => line.trim()).filter(Boolean)
    const answer = await call('POST', '/bff/api/recipes', { title: title.value, ingredients: lines })
    if (!check(answer, 201)) return
    quick.reset()
    say('Recipe created')
    await load(1)
  }))

  ctx.screen.append(h('div', { class: 'browse' },
    h('section', { class: 'browse-main', 'aria-labelledby': 'browse-heading' },
      heading('Recipes', { id: 'browse-heading' }), filters, summary, list, pages),
    h('aside', { class: 'card browse-side', 'aria-label': 'Quick add' }, quick)))
  await load(Number(q.get('page') ?? 1) || 1)
}

// ---- start ----

async function start () {
  $('signin-form').addEventListener('submit', act(signIn))
  $('refresh-button').addEventListener('click', act(refresh))
  $('signout-button').addEventListener('click', act(signOut))
  document.addEventListener('click', onLinkClick)
  window.addEventListener('popstate', () => { say(''); render().catch(failed) })
  const answer = await call('GET', '/bff/auth/session')
  await setUser(answer.status === 200 ? answer.body.user : null)
  await render()
  // Keeps the unread count fresh while the page stays open.
  setInterval(() => { if (session.user != null && document.visibilityState === 'visible') refreshBadge().catch(() => {}) }, 60_000)
}

start().catch(failed)
