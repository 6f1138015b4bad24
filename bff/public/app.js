// The web proxy's sign-in page. Everything goes through the proxy on this origin: /bff/auth/* for the session and
// /bff/api/* for the API. The session token lives in an httpOnly cookie this script never sees. Data from the API is
// only ever written with textContent (never innerHTML), so nothing it contains can become markup.
'use strict'

const $ = id => document.getElementById(id)

/** A same-origin JSON call; resolves to { status, body } (body null when there is none or it is not JSON). */
async function call (method, url, body) {
  const response = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  let data = null
  try { data = await response.json() } catch { data = null }
  return { status: response.status, body: data }
}

function say (text) {
  $('status').textContent = text
}

/** The error of an answer, as the API words it. */
function problem ({ status, body }) {
  const details = Array.isArray(body?.details) ? `: ${body.details.join('; ')}` : ''
  return `${typeof body?.error === 'string' ? body.error : `Request failed (${status})`}${details}`
}

function show (state) {
  document.body.dataset.state = state
  $('signed-out').hidden = state !== 'signed-out'
  $('signed-in').hidden = state !== 'signed-in'
}

function signedOut () {
  $('username').textContent = ''
  $('recipe-list').replaceChildren()
  show('signed-out')
}

async function signedIn (user) {
  $('username').textContent = user.username
  show('signed-in')
  await loadRecipes()
}

function recipeItem (recipe) {
  const item = document.createElement('li')
  item.dataset.recipeId = recipe.id
  const title = document.createElement('span')
  title.className = 'recipe-title'
  title.textContent = recipe.title
  const author = document.createElement('span')
  author.className = 'recipe-author'
  author.textContent = ` by ${recipe.author?.username ?? '?'} `
  const likes = document.createElement('span')
  likes.className = 'like-count'
  likes.textContent = String(recipe.likeCount)
  const like = document.createElement('button')
  like.type = 'button'
  like.className = 'like-button'
  like.textContent = recipe.isLiked ? 'Liked' : 'Like'
  like.disabled = recipe.isLiked === true
  like.addEventListener('click', () => { likeRecipe(recipe.id, item).catch(failed) })
  item.append(title, author, likes, ' ', like)
  return item
}

async function loadRecipes () {
  const answer = await call('GET', '/bff/api/recipes?limit=20')
  if (answer.status !== 200) return say(problem(answer))
  $('recipe-list').replaceChildren(...answer.body.recipes.map(recipeItem))
  document.body.dataset.recipes = String(answer.body.recipes.length)
}

async function likeRecipe (id, item) {
  const answer = await call('POST', `/bff/api/social/recipes/${encodeURIComponent(id)}/like`)
  if (answer.status !== 200) return say(problem(answer))
  item.querySelector('.like-count').textContent = String(answer.body.likeCount)
  const button = item.querySelector('.like-button')
  button.textContent = 'Liked'
  button.disabled = true
  say('Liked')
}

async function signIn (event) {
  event.preventDefault()
  const answer = await call('POST', '/bff/auth/login', { identifier: $('identifier').value, password: $('password').value })
  $('password').value = ''
  if (answer.status !== 200) return say(problem(answer))
  say('Signed in')
  await signedIn(answer.body.user)
}

async function createRecipe (event) {
  event.preventDefault()
  const ingredients = $('ingredients').value.split('\n').map(line => line.trim()).filter(Boolean)
  const answer = await call('POST', '/bff/api/recipes', { title: $('title').value, ingredients })
  if (answer.status !== 201) return say(problem(answer))
  $('create-form').reset()
  say('Recipe created')
  await loadRecipes()
}

async function refresh () {
  const answer = await call('POST', '/bff/auth/refresh')
  if (answer.status === 401) { say('Your session has ended: sign in again'); return signedOut() }
  say(answer.status === 200 ? 'Session renewed' : problem(answer))
}

async function signOut () {
  const answer = await call('POST', '/bff/auth/logout')
  if (answer.status !== 200) return say(problem(answer))
  say('Signed out')
  signedOut()
}

function failed (err) {
  say(`Something went wrong: ${err?.message ?? err}`)
}

async function start () {
  $('signin-form').addEventListener('submit', event => { signIn(event).catch(failed) })
  $('create-form').addEventListener('submit', event => { createRecipe(event).catch(failed) })
  $('refresh-button').addEventListener('click', () => { refresh().catch(failed) })
  $('signout-button').addEventListener('click', () => { signOut().catch(failed) })
  const session = await call('GET', '/bff/auth/session')
  if (session.status === 200) await signedIn(session.body.user)
  else signedOut()
}

document.addEventListener('DOMContentLoaded', () => { start().catch(failed) })
