// The recipe page: picture, facts, ingredients scaled by a servings control, steps, nutrition, and what a reader does
// with it: like, bookmark, rate, mark as cooked, add to a collection or a meal plan, comment and reply.
import { call, check, act, say, heading } from '../app.js'
import { h, field, select, picture, minutes, shortDate, uid } from './dom.js'

const id = encodeURIComponent

/** 1.5 -> "1 1/2", 0.333 -> "1/3"; other numbers to at most two decimals. */
export function amount (value) {
  if (value == null) return ''
  const whole = Math.floor(value + 1e-9)
  const rest = value - whole
  const fractions = [[1 / 4, '1/4'], [1 / 3, '1/3'], [1 / 2, '1/2'], [2 / 3, '2/3'], [3 / 4, '3/4']]
  if (rest < 0.01) return String(whole)
  for (const [f, text] of fractions) if (Math.abs(rest - f) < 0.01) return whole > 0 ? `${whole} ${text}` : text
  return String(Math.round(value * 100) / 100)
}

function ingredientLine (ingredient, factor) {
  // As written, unless it is scaled.
  if (ingredient.quantity == null || factor === 1) return ingredient.text || ingredient.name
  const high = ingredient.quantity2 != null ? `–${amount(ingredient.quantity2 * factor)}` : ''
  return `${amount(ingredient.quantity * factor)}${high}${ingredient.unit ? ` ${ingredient.unit}` : ''} ${ingredient.name}${ingredient.note ? `, ${ingredient.note}` : ''}`
}

function toggle (label, pressedLabel, pressed, onToggle, attrs = {}) {
  const button = h('button', { type: 'button', class: 'quiet', 'aria-pressed': String(pressed), ...attrs }, pressed ? pressedLabel : label)
  button.addEventListener('click', act(async () => {
    const now = button.getAttribute('aria-pressed') === 'true'
    if (await onToggle(!now) === false) return
    button.setAttribute('aria-pressed', String(!now))
    button.textContent = now ? label : pressedLabel
  }))
  return button
}

export const show = {
  async render (ctx) {
    const answer = await call('GET', `/bff/api/recipes/${id(ctx.params.id)}`)
    if (!ctx.live()) return
    if (answer.status === 404) {
      ctx.screen.append(h('section', { class: 'card' }, heading('Recipe not found'), h('p', {}, 'It may have been removed or made private. '), h('a', { href: '/' }, 'Back to the recipes')))
      return
    }
    if (!check(answer, 200)) return
    const recipe = answer.body.recipe
    const mine = recipe.author?.id === ctx.user.id
    const rid = id(recipe.id)

    // Facts
    const facts = h('ul', { class: 'facts' },
      [['Prep', minutes(recipe.prepTime)], ['Cook', minutes(recipe.cookTime)], ['Total', minutes(recipe.totalTime)], ['Cuisine', recipe.cuisine], ['Difficulty', recipe.difficulty]]
        .filter(([, value]) => value != null && value !== '')
        .map(([name, value]) => h('li', {}, h('span', { class: 'fact-name' }, name), ' ', h('strong', {}, value))))

    // Actions
    const likeCount = h('span', { id: 'like-count' }, String(recipe.likeCount))
    const like = toggle('Like', 'Unlike', recipe.isLiked, async on => {
      const res = await call(on ? 'POST' : 'DELETE', `/bff/api/social/recipes/${rid}/like`)
      if (!check(res, 200)) return false
      if (res.body.likeCount != null) likeCount.textContent = String(res.body.likeCount)
      say(on ? 'Liked' : 'Like removed')
    }, { id: 'like-button' })
    const bookmark = toggle('Bookmark', 'Bookmarked', recipe.isBookmarked, async on => {
      const res = await call(on ? 'POST' : 'DELETE', `/bff/api/bookmarks/${rid}`)
      if (!check(res)) return false
      say(on ? 'Saved to your bookmarks' : 'Bookmark removed')
    }, { id: 'bookmark-button' })
    const cooked = toggle('I cooked this', 'Cooked ✓', false, async on => {
      const res = await call(on ? 'POST' : 'DELETE', `/bff/api/cooking/recipes/${rid}/cooked`)
      if (!check(res)) return false
      say(on ? 'Marked as cooked' : 'Unmarked')
    }, { id: 'cooked-button' })

    // Rating: five radio buttons, sent when one is chosen.
    const ratingSummary = h('span', { id: 'rating-summary' }, ratingText(recipe.averageRating, recipe.ratingCount))
    const stars = h('fieldset', { class: 'stars', id: 'rating' }, h('legend', {}, 'Your rating'),
      [1, 2, 3, 4, 5].map(n => {
        const input = h('input', { type: 'radio', name: 'rating', value: String(n), id: uid('star'), checked: recipe.userRating === n })
        input.addEventListener('change', act(async () => {
          const res = await call('POST', `/bff/api/ratings/recipes/${rid}`, { rating: n })
          if (!check(res, 200)) return
          ratingSummary.textContent = ratingText(res.body.averageRating, res.body.ratingCount)
          say(`Rated ${n} out of 5`)
        }))
        return h('span', { class: 'star' }, input, h('label', { for: input.id }, `${n}★`, h('span', { class: 'visually-hidden' }, ` ${n} star${n > 1 ? 's' : ''}`)))
      }), ' ', ratingSummary)

    // Servings
    const base = recipe.servings ?? null
    const servings = h('input', { id: 'servings', type: 'number', min: '1', max: '100', value: String(base ?? 1), inputmode: 'numeric' })
    const list = h('ul', { id: 'ingredient-list', class: 'ingredients' })
    const drawIngredients = () => {
      const wanted = Number(servings.value)
      const factor = base != null && wanted > 0 ? wanted / base : 1
      const items = []
      let group = null
      for (const ingredient of recipe.ingredients) {
        if ((ingredient.group ?? null) !== group) { group = ingredient.group ?? null; if (group) items.push(h('li', { class: 'group' }, group)) }
        items.push(h('li', {}, ingredientLine(ingredient, factor)))
      }
      list.replaceChildren(...items)
    }
    servings.addEventListener('input', drawIngredients)
    drawIngredients()

    const steps = h('ol', { class: 'steps' }, recipe.instructions.map(step => h('li', {}, step.section ? h('strong', {}, `${step.section}: `) : null, step.text)))

    ctx.screen.append(h('article', { class: 'recipe', 'aria-labelledby': 'recipe-heading' },
      h('div', { class: 'recipe-head' },
        picture(recipe.imageUrl, recipe.title, 'hero'),
        h('div', {},
          heading(recipe.title, { id: 'recipe-heading' }),
          h('p', { class: 'meta' }, 'by ', h('a', { href: `/users/${id(recipe.author?.username ?? '')}` }, recipe.author?.username ?? '?'),
            recipe.published ? null : ' · draft', ` · ${recipe.visibility}`),
          recipe.description ? h('p', { class: 'description' }, recipe.description) : null,
          h('p', { class: 'tags' }, recipe.tags.map(tag => h('a', { class: 'tag', href: `/?tag=${id(tag.slug)}` }, `#${tag.name}`))),
          facts,
          h('div', { class: 'actions' }, like, likeCount, bookmark, cooked,
            mine ? h('a', { class: 'button quiet', href: `/recipes/${rid}/edit` }, 'Edit') : null),
          stars,
          recipe.sourceUrl ? h('p', { class: 'source' }, 'Source: ', recipe.sourceUrl) : null)),
      h('div', { class: 'recipe-body' },
        h('section', { 'aria-labelledby': 'ingredients-heading', class: 'card' },
          h('h2', { id: 'ingredients-heading' }, 'Ingredients'),
          base != null ? field(`Servings (recipe makes ${base})`, servings) : null,
          list),
        h('section', { 'aria-labelledby': 'steps-heading', class: 'card' }, h('h2', { id: 'steps-heading' }, 'Steps'),
          recipe.instructions.length === 0 ? h('p', {}, 'No steps yet.') : steps)),
      h('div', { class: 'recipe-body' }, await addTo(ctx, recipe), await nutrition(rid)),
      await comments(ctx, recipe)))
  }
}

/** saturatedFat -> Saturated fat */
const words = key => key.replace(/([A-Z])/g, ' $1').toLowerCase().replace(/^./, c => c.toUpperCase())

const ratingText = (average, count) => count === 0 ? 'Not rated yet' : `${average.toFixed(1)} out of 5 from ${count} rating${count === 1 ? '' : 's'}`

/** Add to one of my collections, or to a day of one of my meal plans. */
async function addTo (ctx, recipe) {
  const [collections, plans] = await Promise.all([call('GET', '/bff/api/collections?limit=50'), call('GET', '/bff/api/mealplans?limit=20&scope=all')])
  const mine = (collections.body?.collections ?? []).filter(c => c.userId === ctx.user.id)
  const collection = select({ name: 'collection', id: 'collection-select' }, mine.map(c => [c.id, c.name]))
  const toCollection = mine.length === 0
    ? h('p', { class: 'hint' }, 'No collection yet: ', h('a', { href: '/collections' }, 'create one'))
    : h('form', { id: 'collection-form' }, field('Collection', collection), h('button', { type: 'submit' }, 'Add to collection'))
  toCollection.addEventListener('submit', act(async () => {
    const res = await call('POST', `/bff/api/collections/${id(collection.value)}/recipes`, { recipeId: recipe.id })
    if (check(res, [200, 201])) say(`Added to ${res.body.collection.name}`)
  }))

  const editable = (plans.body?.mealPlans ?? []).filter(p => p.access !== 'view')
  const plan = select({ name: 'plan' }, editable.map(p => [p.id, `${p.name} (${p.startDate} to ${p.endDate})`]))
  const date = h('input', { type: 'date', name: 'date', required: true, value: editable[0]?.startDate ?? '' })
  const meal = select({ name: 'mealType' }, MEALS, 'dinner')
  plan.addEventListener('change', () => { date.value = editable.find(p => p.id === plan.value)?.startDate ?? '' })
  const toPlan = editable.length === 0
    ? h('p', { class: 'hint' }, 'No meal plan yet: ', h('a', { href: '/plan' }, 'start one'))
    : h('form', { id: 'plan-form' }, field('Meal plan', plan), field('Day', date), field('Meal', meal), h('button', { type: 'submit' }, 'Add to meal plan'))
  toPlan.addEventListener('submit', act(async () => {
    const res = await call('POST', '/bff/api/planned-meals', { mealPlanId: plan.value, date: date.value, mealType: meal.value, recipeId: recipe.id, servings: recipe.servings ?? undefined })
    if (check(res, 201)) say(`Planned for ${meal.value} on ${date.value}`)
  }))
  return h('section', { class: 'card', 'aria-labelledby': 'add-heading' }, h('h2', { id: 'add-heading' }, 'Keep it'), toCollection, toPlan)
}

export const MEALS = [['breakfast', 'Breakfast'], ['lunch', 'Lunch'], ['dinner', 'Dinner'], ['snack', 'Snack'], ['dessert', 'Dessert']]

async function nutrition (rid) {
  const section = h('section', { class: 'card', 'aria-labelledby': 'nutrition-heading' }, h('h2', { id: 'nutrition-heading' }, 'Nutrition'))
  const res = await call('GET', `/bff/api/nutrition/recipes/${rid}`)
  const per = res.body?.nutrition?.perServing
  if (res.status !== 200 || per == null) { section.append(h('p', {}, 'Not available for this recipe.')); return section }
  const rows = Object.entries(per).filter(([, value]) => typeof value === 'number')
  section.append(h('table', { class: 'nutrition' }, h('caption', {}, res.body.nutrition.perServingIsWholeRecipe ? 'Whole recipe' : 'Per serving'),
    h('tbody', {}, rows.map(([name, value]) => h('tr', {}, h('th', { scope: 'row' }, words(name)), h('td', {}, String(Math.round(value * 10) / 10)))))))
  return section
}

/** Comments with their replies; a form for a new comment and a reply form under each. */
async function comments (ctx, recipe) {
  const rid = id(recipe.id)
  const list = h('ol', { id: 'comment-list', class: 'comments' })
  const more = h('div')
  const section = h('section', { class: 'card', 'aria-labelledby': 'comments-heading' }, h('h2', { id: 'comments-heading' }, 'Comments'))

  const commentItem = (comment) => {
    const replies = h('ol', { class: 'replies' }, (comment.replies ?? []).map(reply => h('li', { class: 'comment', dataset: { commentId: reply.id } }, byline(reply), h('p', { class: 'comment-text' }, reply.content))))
    const item = h('li', { class: 'comment', dataset: { commentId: comment.id } }, byline(comment), h('p', { class: 'comment-text' }, comment.content), replies)
    if (comment.parentId == null) {
      const text = h('textarea', { name: 'content', required: true, maxlength: '10000', rows: '2' })
      const form = h('form', { class: 'reply-form', hidden: true }, field('Your reply', text), h('button', { type: 'submit' }, 'Send reply'))
      const open = h('button', { type: 'button', class: 'quiet reply-button', 'aria-expanded': 'false' }, 'Reply')
      open.addEventListener('click', () => { form.hidden = !form.hidden; open.setAttribute('aria-expanded', String(!form.hidden)); if (!form.hidden) text.focus() })
      form.addEventListener('submit', act(async () => {
        const res = await call('POST', `/bff/api/comments/${id(comment.id)}/reply`, { content: text.value })
        if (!check(res, 201)) return
        replies.append(h('li', { class: 'comment', dataset: { commentId: res.body.comment.id } }, byline(res.body.comment), h('p', { class: 'comment-text' }, res.body.comment.content)))
        form.reset(); form.hidden = true; open.setAttribute('aria-expanded', 'false')
        say('Reply posted')
      }))
      item.append(open, form)
    }
    return item
  }
  const byline = comment => h('p', { class: 'meta' }, h('strong', {}, comment.user?.username ?? '?'), comment.isAuthor ? ' (author)' : '', ` · ${shortDate(comment.createdAt)}`)

  async function load (page) {
    const res = await call('GET', `/bff/api/comments/recipe/${rid}?page=${page}&limit=20`)
    if (!check(res, 200)) return
    list.append(...res.body.comments.map(commentItem))
    more.replaceChildren(res.body.pagination.hasNext ? h('button', { type: 'button', class: 'quiet', onclick: act(() => load(page + 1)) }, 'More comments') : '')
  }
  const text = h('textarea', { id: 'comment-text', name: 'content', required: true, maxlength: '10000', rows: '3' })
  const form = h('form', { id: 'comment-form' }, field('Add a comment', text), h('button', { type: 'submit' }, 'Post comment'))
  form.addEventListener('submit', act(async () => {
    const res = await call('POST', `/bff/api/comments/recipe/${rid}`, { content: text.value })
    if (!check(res, 201)) return
    list.prepend(commentItem({ ...res.body.comment, replies: [] }))
    form.reset()
    say('Comment posted')
  }))
  section.append(form, list, more)
  await load(1)
  return section
}
