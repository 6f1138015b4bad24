// Households and meal planning: my plans and households (create, join by invite code), a plan's week view (add a
// recipe to a day and meal, remove it, share the plan with a household), and the grocery list made from a plan, with
// check-off sized for a phone.
import { call, check, act, say, heading, navigate, loadResource } from '../app.js'
import { h, field, select, checkbox } from './dom.js'
import { MEALS } from './recipe.js'

const id = encodeURIComponent
const DAY = 24 * 60 * 60 * 1000

const iso = date => date.toISOString().slice(0, 10)
const parse = text => new Date(`${text}T00:00:00Z`)
const dayName = text => parse(text).toLocaleDateString(undefined, { weekday: 'long', month: 'short', day: 'numeric', timeZone: 'UTC' })
function monday (date = new Date()) {
  const utc = new Date(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()))
  return new Date(utc.getTime() - ((utc.getUTCDay() + 6) % 7) * DAY)
}

export const plans = {
  async render (ctx) {
    const [planList, lists, families] = await Promise.all([
      call('GET', '/bff/api/mealplans?limit=50&scope=all'),
      call('GET', '/bff/api/grocerylists?limit=20'),
      call('GET', '/bff/api/families?limit=20')
    ])
    if (!ctx.live() || !check(planList, 200)) return
    const start = monday()
    const name = h('input', { name: 'name', required: true, maxlength: '100', value: `Week of ${dayName(iso(start))}`, id: 'plan-name' })
    const from = h('input', { name: 'startDate', type: 'date', required: true, value: iso(start) })
    const to = h('input', { name: 'endDate', type: 'date', required: true, value: iso(new Date(start.getTime() + 6 * DAY)) })
    const form = h('form', { id: 'plan-create' }, field('Name', name), h('div', { class: 'grid' }, field('From', from), field('To', to)),
      h('button', { type: 'submit' }, 'Start a meal plan'))
    form.addEventListener('submit', act(async () => {
      const made = await call('POST', '/bff/api/mealplans', { name: name.value, startDate: from.value, endDate: to.value })
      if (!check(made, 201)) return
      say('Meal plan created')
      await navigate(`/plan/${id(made.body.mealPlan.id)}`)
    }))
    const planItems = planList.body.mealPlans.map(plan => h('li', { dataset: { planId: plan.id } },
      h('a', { href: `/plan/${id(plan.id)}` }, plan.name), h('span', { class: 'meta' }, ` · ${plan.startDate} to ${plan.endDate} · ${plan.plannedMealCount} meals${plan.access !== 'owner' ? ` · shared by ${plan.owner?.username}` : ''}`)))
    const groceryItems = (lists.body?.groceryLists ?? []).map(list => h('li', {},
      h('a', { href: `/grocery/${id(list.id)}` }, list.name), h('span', { class: 'meta' }, ` · ${list.checkedCount} of ${list.itemCount} checked`)))

    ctx.screen.append(h('div', { class: 'browse' },
      h('section', { class: 'browse-main' }, heading('Meal plans'),
        h('ul', { id: 'plan-list', class: 'plain' }, planItems.length > 0 ? planItems : h('li', { class: 'empty' }, 'No meal plan yet.')),
        h('h2', {}, 'Grocery lists'),
        h('ul', { id: 'grocery-lists', class: 'plain' }, groceryItems.length > 0 ? groceryItems : h('li', { class: 'empty' }, 'None yet: make one from a meal plan.')),
        households(families.body?.families ?? [])),
      h('aside', { class: 'card browse-side', 'aria-labelledby': 'new-plan' }, h('h2', { id: 'new-plan' }, 'New meal plan'), form)))
  }
}

/** My households, with their invite codes; create one or join one. */
function households (families) {
  const list = h('ul', { id: 'household-list', class: 'plain' }, families.map(family => h('li', {}, h('strong', {}, family.name),
    h('span', { class: 'meta' }, ` · ${family.memberCount} member${family.memberCount === 1 ? '' : 's'} · ${family.role}`),
    family.inviteCode ? [' · invite code ', h('code', {}, family.inviteCode)] : null)))
  if (families.length === 0) list.append(h('li', { class: 'empty' }, 'You are in no household yet.'))
  const name = h('input', { name: 'name', required: true, maxlength: '100' })
  const create = h('form', { id: 'household-create', class: 'inline' }, field('New household', name), h('button', { type: 'submit' }, 'Create'))
  create.addEventListener('submit', act(async () => {
    const made = await call('POST', '/bff/api/families', { name: name.value })
    if (!check(made, 201)) return
    say(`Household created; its invite code is ${made.body.family.inviteCode}`)
    await navigate('/plan', true)
  }))
  const code = h('input', { name: 'inviteCode', required: true, maxlength: '8', pattern: '[0-9a-f]{8}', autocomplete: 'off' })
  const join = h('form', { id: 'household-join', class: 'inline' }, field('Invite code', code), h('button', { type: 'submit' }, 'Join'))
  join.addEventListener('submit', act(async () => {
    const joined = await call('POST', '/bff/api/families/join', { inviteCode: code.value.trim().toLowerCase() })
    if (!check(joined, [200, 201])) return
    say(`You joined ${joined.body.family.name}`)
    await navigate('/plan', true)
  }))
  return h('section', { 'aria-labelledby': 'households' }, h('h2', { id: 'households' }, 'Households'),
    h('p', { class: 'meta' }, 'Share meal plans and grocery lists with the people you live with.'), list, create, join)
}

export const week = {
  async render (ctx) {
    const pid = id(ctx.params.id)
    const body = await loadResource(ctx, `/bff/api/mealplans/${pid}`, { title: 'Meal plan not found', href: '/plan', link: 'Your meal plans' })
    if (body == null) return
    const plan = body.mealPlan
    const canEdit = plan.access !== 'view'
    const days = []
    for (let t = parse(plan.startDate).getTime(); t <= parse(plan.endDate).getTime() && days.length < 31; t += DAY) days.push(iso(new Date(t)))

    const grid = h('div', { class: 'week', id: 'week' })
    const drawDays = meals => {
      grid.replaceChildren(...days.map(day => {
        const todays = meals.filter(meal => meal.date === day)
          .sort((a, b) => MEALS.findIndex(m => m[0] === a.mealType) - MEALS.findIndex(m => m[0] === b.mealType))
        return h('section', { class: 'day', dataset: { date: day }, 'aria-label': dayName(day) },
          h('h3', {}, dayName(day)),
          h('ul', { class: 'plain' }, todays.length === 0
            ? h('li', { class: 'empty' }, 'Nothing planned')
            : todays.map(meal => {
              const label = meal.recipe != null ? h('a', { href: `/recipes/${id(meal.recipe.id)}` }, meal.recipe.title) : meal.customTitle ?? '?'
              const item = h('li', { class: 'meal', dataset: { mealType: meal.mealType } }, h('span', { class: 'meal-type' }, MEALS.find(m => m[0] === meal.mealType)?.[1] ?? meal.mealType), ' ', label)
              if (canEdit) {
                item.append(' ', h('button', {
                  type: 'button',
                  class: 'quiet remove',
                  onclick: act(async () => {
                    const gone = await call('DELETE', `/bff/api/planned-meals/${id(meal.id)}`)
                    if (!check(gone)) return
                    plan.plannedMeals = plan.plannedMeals.filter(m => m.id !== meal.id)
                    drawDays(plan.plannedMeals)
                    say('Meal removed')
                  })
                }, 'Remove', h('span', { class: 'visually-hidden' }, ` ${meal.mealType} on ${dayName(day)}`)))
              }
              return item
            })))
      }))
    }
    drawDays(plan.plannedMeals)

    // Add a meal: the day, the meal, and a recipe found by search (or a title of one's own, such as "Leftovers").
    const day = select({ name: 'date', id: 'meal-day' }, days.map(d => [d, dayName(d)]), days[0])
    const meal = select({ name: 'mealType', id: 'meal-type' }, MEALS, 'dinner')
    const query = h('input', { type: 'search', id: 'meal-search', maxlength: '200', placeholder: 'Title or ingredient' })
    const choice = h('select', { name: 'recipeId', id: 'meal-recipe' })
    const custom = h('input', { name: 'customTitle', id: 'meal-custom', maxlength: '200', placeholder: 'e.g. Leftovers' })
    async function find () {
      const found = await call('GET', `/bff/api/recipes?limit=30${query.value.trim() ? `&search=${id(query.value.trim())}` : '&sort=popular'}`)
      if (!check(found, 200)) return
      choice.replaceChildren(h('option', { value: '' }, found.body.recipes.length === 0 ? 'No recipe found' : 'Choose a recipe…'),
        ...found.body.recipes.map(recipe => h('option', { value: recipe.id }, recipe.title)))
      if (found.body.recipes.length > 0) choice.selectedIndex = 1
    }
    const findButton = h('button', { type: 'button', class: 'quiet', id: 'meal-find', onclick: act(find) }, 'Find')
    query.addEventListener('keydown', event => { if (event.key === 'Enter') { event.preventDefault(); findButton.click() } })
    const add = h('form', { id: 'meal-add' },
      h('div', { class: 'grid' }, field('Day', day), field('Meal', meal)),
      h('div', { class: 'inline' }, field('Find a recipe', query), findButton),
      field('Recipe', choice), field('Or write a meal', custom),
      h('button', { type: 'submit' }, 'Add to plan'))
    add.addEventListener('submit', act(async () => {
      const body = { mealPlanId: plan.id, date: day.value, mealType: meal.value }
      if (choice.value !== '') body.recipeId = choice.value
      else if (custom.value.trim() !== '') body.customTitle = custom.value.trim()
      else return say('Choose a recipe or write a meal', 'error')
      const made = await call('POST', '/bff/api/planned-meals', body)
      if (!check(made, 201)) return
      plan.plannedMeals.push(made.body.plannedMeal)
      drawDays(plan.plannedMeals)
      custom.value = ''
      say(`Added to ${meal.value} on ${dayName(day.value)}`)
    }))

    const grocery = h('button', { type: 'button', id: 'make-grocery' }, 'Make the grocery list')
    grocery.addEventListener('click', act(async () => {
      const made = await call('POST', '/bff/api/grocerylists/from-mealplan', { mealPlanId: plan.id, name: `Groceries: ${plan.name}`.slice(0, 100) })
      if (!check(made, 201)) return
      await navigate(`/grocery/${id(made.body.groceryList.id)}`)
      say('Grocery list made from the plan')
    }))

    const side = [canEdit ? h('section', { class: 'card', 'aria-labelledby': 'add-meal' }, h('h2', { id: 'add-meal' }, 'Add a meal'), add) : null,
      h('section', { class: 'card' }, h('h2', {}, 'Shopping'), grocery)]
    if (plan.access === 'owner') side.push(await sharing(plan))
    ctx.screen.append(h('div', { class: 'browse' },
      h('section', { class: 'browse-main' }, heading(plan.name), h('p', { class: 'meta' }, `${dayName(plan.startDate)} to ${dayName(plan.endDate)}`), grid),
      h('aside', { class: 'browse-side' }, side)))
    if (canEdit) await find()
  }
}

async function sharing (plan) {
  const families = await call('GET', '/bff/api/families?limit=20')
  const mine = families.body?.families ?? []
  const section = h('section', { class: 'card', 'aria-labelledby': 'share-plan' }, h('h2', { id: 'share-plan' }, 'Share with a household'))
  if (mine.length === 0) { section.append(h('p', {}, 'Create or join a household on ', h('a', { href: '/plan' }, 'the meal plans page'), ' first.')); return section }
  const family = select({ name: 'familyId' }, mine.map(f => [f.id, f.name]))
  const permission = select({ name: 'permission' }, [['edit', 'Can edit'], ['view', 'Can view']], 'edit')
  const form = h('form', { id: 'share-form' }, field('Household', family), field('Permission', permission), h('button', { type: 'submit' }, 'Share'))
  form.addEventListener('submit', act(async () => {
    const shared = await call('POST', '/bff/api/shared-meal-plans', { mealPlanId: plan.id, familyId: family.value, permission: permission.value })
    if (check(shared, [200, 201])) say('Plan shared')
  }))
  section.append(form)
  return section
}

const CATEGORIES = ['produce', 'bakery', 'meat', 'dairy', 'frozen', 'pantry', 'spices', 'beverages', 'other']

export const grocery = {
  async render (ctx) {
    const gid = id(ctx.params.id)
    const found = await loadResource(ctx, `/bff/api/grocerylists/${gid}`, { title: 'Grocery list not found', href: '/plan', link: 'Meal plans' })
    if (found == null) return
    const list = found.groceryList
    const count = h('p', { id: 'grocery-count', class: 'meta', 'aria-live': 'polite' })
    const body = h('div', { id: 'grocery-items' })
    const items = list.items
    const tally = () => { count.textContent = `${items.filter(item => item.checked).length} of ${items.length} checked` }
    const draw = () => {
      body.replaceChildren(...CATEGORIES.map(category => {
        const here = items.filter(item => item.category === category)
        if (here.length === 0) return null
        return h('section', { class: 'aisle', 'aria-labelledby': `aisle-${category}` },
          h('h2', { id: `aisle-${category}` }, category[0].toUpperCase() + category.slice(1)),
          h('ul', { class: 'checklist' }, here.map(item => {
            const label = [item.quantity != null ? String(Math.round(item.quantity * 100) / 100) : '', item.unit ?? '', item.name].filter(Boolean).join(' ')
            const box = checkbox(label, { checked: item.checked, dataset: { itemId: item.id } })
            box.querySelector('input').addEventListener('change', act(async event => {
              const wanted = event.target.checked
              const saved = await call('PATCH', `/bff/api/grocerylists/${gid}/items/${id(item.id)}`, { checked: wanted })
              if (!check(saved, 200)) { event.target.checked = !wanted; return }
              item.checked = wanted
              tally()
            }))
            return h('li', {}, box, item.note ? h('small', { class: 'hint' }, item.note) : null)
          })))
      }).filter(Boolean))
      if (items.length === 0) body.append(h('p', { class: 'empty' }, 'The list is empty.'))
      tally()
    }
    draw()
    const name = h('input', { name: 'name', required: true, maxlength: '200', id: 'grocery-new' })
    const add = h('form', { id: 'grocery-add', class: 'inline' }, field('Add an item', name), h('button', { type: 'submit' }, 'Add'))
    add.addEventListener('submit', act(async () => {
      const made = await call('POST', `/bff/api/grocerylists/${gid}/items`, { name: name.value })
      if (!check(made, [200, 201])) return
      items.push(made.body.item)
      add.reset()
      draw()
      say(`${made.body.item.name} added`)
    }))
    const clear = h('button', {
      type: 'button',
      class: 'quiet',
      onclick: act(async () => {
        const done = await call('POST', `/bff/api/grocerylists/${gid}/clear-checked`)
        if (!check(done)) return
        items.splice(0, items.length, ...items.filter(item => !item.checked))
        draw()
        say('Checked items removed')
      })
    }, 'Remove checked items')
    ctx.screen.append(h('section', { class: 'card grocery' }, heading(list.name), count, body, add, clear,
      list.mealPlanId ? h('p', {}, h('a', { href: `/plan/${id(list.mealPlanId)}` }, 'Back to the meal plan')) : null))
  }
}
