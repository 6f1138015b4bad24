// Create and edit a recipe: structured ingredients and steps (rows added and removed), a photo uploaded with a preview,
// visibility, draft or published, tags; the edit screen lists revisions to restore. The same form edits an import's
// preview before it is saved (importer.js).
import { call, check, act, say, heading, navigate } from '../app.js'
import { h, field, select, checkbox, picture, imageSrc, dataUrl, shortDate } from './dom.js'

const id = encodeURIComponent
const VISIBILITY = [['public', 'Public: everyone'], ['friends', 'Friends: people who follow each other'], ['private', 'Private: only me']]
const TYPES = [['food', 'Food'], ['drink', 'Drink']]
const DIFFICULTY = [['easy', 'Easy'], ['medium', 'Medium'], ['hard', 'Hard']]
const MAX_PHOTO_BYTES = 10 * 1024 * 1024

const number = value => value === '' || value == null ? null : Number(value)

function ingredientRow (ingredient = {}) {
  const row = h('li', { class: 'row ingredient-row' },
    field('Amount', h('input', { name: 'quantity', type: 'number', min: '0', step: 'any', inputmode: 'decimal', value: ingredient.quantity ?? '', class: 'short' })),
    field('Unit', h('input', { name: 'unit', maxlength: '50', value: ingredient.unit ?? '', class: 'short', placeholder: 'g, cup…' })),
    field('Ingredient', h('input', { name: 'name', maxlength: '200', value: ingredient.name || (ingredient.quantity == null ? ingredient.text ?? '' : ''), required: true })),
    field('Note', h('input', { name: 'note', maxlength: '500', value: ingredient.note ?? '', placeholder: 'chopped…' })))
  row.append(h('button', { type: 'button', class: 'quiet remove', onclick: () => removeRow(row) }, 'Remove', h('span', { class: 'visually-hidden' }, ' ingredient')))
  return row
}

function stepRow (step = {}) {
  const row = h('li', { class: 'row step-row' },
    field('Step', h('textarea', { name: 'step', rows: '2', maxlength: '5000', required: true, value: step.text ?? '' })))
  row.append(h('button', { type: 'button', class: 'quiet remove', onclick: () => removeRow(row) }, 'Remove', h('span', { class: 'visually-hidden' }, ' step')))
  return row
}

/** Removes a row and puts the focus on a neighbour (or the list's add button), so the keyboard is never lost. */
function removeRow (row) {
  const next = row.nextElementSibling ?? row.previousElementSibling
  const add = row.parentElement.nextElementSibling
  row.remove()
  ;(next?.querySelector('input, textarea') ?? add)?.focus()
}

/**
 * The recipe form. `initial` is a recipe or an import preview; `mode` is 'recipe' or 'import' (an import is saved
 * with draft/published only: visibility is set when editing afterwards). `photoNote`: what to say of a picture that
 * cannot be shown before saving (another site's). Resolves values through `submit(values)`.
 */
export function recipeForm (initial, { mode = 'recipe', submitLabel, submit, photoNote = 'The photo of the imported page is saved with the recipe.' }) {
  let imageUrl = initial.imageUrl ?? null
  const f = (name, attrs = {}) => h('input', { name, value: initial[name] ?? '', ...attrs })
  const title = f('title', { id: 'recipe-title', required: true, maxlength: '200' })
  const description = h('textarea', { name: 'description', rows: '3', maxlength: '5000', value: initial.description ?? '' })
  const tags = h('input', { name: 'tags', maxlength: '600', value: (initial.tags ?? []).map(tag => typeof tag === 'string' ? tag : tag.name).join(', ') })

  const ingredients = h('ol', { class: 'rows', id: 'ingredient-rows' }, (initial.ingredients?.length ? initial.ingredients : [{}]).map(ingredientRow))
  const addIngredient = h('button', { type: 'button', class: 'quiet', id: 'add-ingredient' }, '+ Add ingredient')
  addIngredient.addEventListener('click', () => { const row = ingredientRow(); ingredients.append(row); row.querySelector('input').focus() })
  const steps = h('ol', { class: 'rows', id: 'step-rows' }, (initial.instructions?.length ? initial.instructions : [{}]).map(stepRow))
  const addStep = h('button', { type: 'button', class: 'quiet', id: 'add-step' }, '+ Add step')
  addStep.addEventListener('click', () => { const row = stepRow(); steps.append(row); row.querySelector('textarea').focus() })

  // Photo: shown at once from the file (a data: URL), uploaded in the background; saved with the recipe.
  const preview = h('div', { class: 'photo-preview', id: 'photo-preview' })
  const photoState = h('p', { class: 'hint', id: 'photo-state', 'aria-live': 'polite' })
  const drawPhoto = (src) => preview.replaceChildren(src != null ? h('img', { src, alt: 'Photo of the recipe', id: 'photo-img' }) : picture(null, '', 'photo'))
  drawPhoto(imageSrc(imageUrl))
  if (imageUrl != null && imageSrc(imageUrl) == null) photoState.textContent = photoNote
  const file = h('input', { type: 'file', name: 'photo', id: 'photo-input', accept: 'image/jpeg,image/png,image/webp,image/gif' })
  const removePhoto = h('button', { type: 'button', class: 'quiet', hidden: imageUrl == null }, 'Remove photo')
  removePhoto.addEventListener('click', () => { imageUrl = null; file.value = ''; drawPhoto(null); removePhoto.hidden = true; photoState.textContent = 'No photo' })
  let uploading = Promise.resolve(true)
  file.addEventListener('change', () => {
    const chosen = file.files?.[0]
    if (chosen == null) return
    if (chosen.size > MAX_PHOTO_BYTES) { photoState.textContent = 'That photo is too large (10 MB at most).'; file.value = ''; return }
    uploading = (async () => {
      drawPhoto(await dataUrl(chosen))
      photoState.textContent = 'Uploading photo…'
      const body = new FormData()
      body.append('image', chosen)
      const res = await call('POST', '/bff/api/upload/image', body)
      if (!check(res, [200, 201])) { photoState.textContent = 'The photo could not be uploaded.'; return false }
      imageUrl = res.body.url
      removePhoto.hidden = false
      photoState.textContent = 'Photo uploaded'
      return true
    })().catch(err => { photoState.textContent = `The photo could not be uploaded: ${err.message}`; return false })
  })

  const published = checkbox('Published (unticked: a draft only you see)', { name: 'published', checked: initial.published !== false, id: 'published' })
  const form = h('form', { id: 'recipe-form', class: 'recipe-form' },
    h('fieldset', {}, h('legend', {}, 'About'),
      field('Title', title), field('Description', description),
      h('div', { class: 'grid' },
        field('Cuisine', f('cuisine', { maxlength: '100' })),
        field('Type', select({ name: 'type' }, TYPES, initial.type ?? 'food')),
        field('Difficulty', select({ name: 'difficulty' }, DIFFICULTY, initial.difficulty ?? 'easy')),
        field('Servings', f('servings', { type: 'number', min: '1', max: '1000', inputmode: 'numeric' })),
        field('Prep time (minutes)', f('prepTime', { type: 'number', min: '0', inputmode: 'numeric' })),
        field('Cook time (minutes)', f('cookTime', { type: 'number', min: '0', inputmode: 'numeric' }))),
      field('Tags', tags, 'Separated by commas, e.g. vegetarian, quick')),
    h('fieldset', {}, h('legend', {}, 'Photo'), preview, field('Choose a photo', file), removePhoto, photoState),
    h('fieldset', {}, h('legend', {}, 'Ingredients'), ingredients, addIngredient),
    h('fieldset', {}, h('legend', {}, 'Steps'), steps, addStep),
    h('fieldset', {}, h('legend', {}, 'Who sees it'),
      mode === 'recipe' ? field('Visibility', select({ name: 'visibility' }, VISIBILITY, initial.visibility ?? 'public')) : null,
      published),
    h('button', { type: 'submit', id: 'save-recipe' }, submitLabel))

  form.addEventListener('submit', act(async () => {
    if (!await uploading) return say('Wait for the photo, or remove it, before saving', 'error')
    const data = new FormData(form)
    const values = {
      title: title.value.trim(),
      description: description.value.trim() || null,
      cuisine: String(data.get('cuisine')).trim() || null,
      type: data.get('type'),
      difficulty: data.get('difficulty'),
      servings: number(data.get('servings')),
      prepTime: number(data.get('prepTime')),
      cookTime: number(data.get('cookTime')),
      tags: tags.value.split(',').map(tag => tag.trim()).filter(Boolean),
      imageUrl,
      published: form.elements.published.checked,
      ingredients: [...ingredients.children].map(row => {
        const get = name => row.querySelector(`[name="${name}"]`).value.trim()
        const quantity = number(get('quantity'))
        const text = [get('quantity'), get('unit'), get('name')].filter(Boolean).join(' ') + (get('note') ? `, ${get('note')}` : '')
        return { name: get('name'), quantity, unit: get('unit') || null, note: get('note') || null, text }
      }).filter(ingredient => ingredient.name !== ''),
      instructions: [...steps.children].map(row => row.querySelector('textarea').value.trim()).filter(Boolean).map((text, i) => ({ step: i + 1, text }))
    }
    if (mode === 'recipe') values.visibility = data.get('visibility')
    await submit(values)
  }))
  return form
}

export const create = {
  async render ({ screen }) {
    const form = recipeForm({ published: true }, {
      submitLabel: 'Save recipe',
      submit: async values => {
        const res = await call('POST', '/bff/api/recipes', values)
        if (!check(res, 201)) return
        await navigate(`/recipes/${id(res.body.recipe.id)}`)
        say('Recipe saved')
      }
    })
    screen.append(h('section', { class: 'card' }, heading('New recipe'), form))
  }
}

export const edit = {
  async render (ctx) {
    const rid = id(ctx.params.id)
    const res = await call('GET', `/bff/api/recipes/${rid}`)
    if (!ctx.live() || !check(res, 200)) return
    const recipe = res.body.recipe
    if (recipe.author?.id !== ctx.user.id) {
      ctx.screen.append(h('section', { class: 'card' }, heading('Not yours to edit'), h('a', { href: `/recipes/${rid}` }, 'Back to the recipe')))
      return
    }
    const form = recipeForm(recipe, {
      submitLabel: 'Save changes',
      submit: async values => {
        const saved = await call('PATCH', `/bff/api/recipes/${rid}`, values)
        if (!check(saved, 200)) return
        await navigate(`/recipes/${rid}`)
        say('Changes saved')
      }
    })
    const remove = h('button', { type: 'button', class: 'danger', id: 'delete-recipe' }, 'Delete this recipe')
    remove.addEventListener('click', act(async () => {
      if (!window.confirm(`Delete "${recipe.title}"? This cannot be undone.`)) return
      const gone = await call('DELETE', `/bff/api/recipes/${rid}`)
      if (!check(gone)) return
      await navigate('/', true)
      say('Recipe deleted')
    }))
    ctx.screen.append(h('section', { class: 'card' }, heading(`Edit: ${recipe.title}`), form),
      await revisions(ctx, rid), h('section', { class: 'card' }, h('h2', {}, 'Danger zone'), remove))
  }
}

async function revisions (ctx, rid) {
  const section = h('section', { class: 'card', 'aria-labelledby': 'revisions-heading' }, h('h2', { id: 'revisions-heading' }, 'Earlier versions'))
  const res = await call('GET', `/bff/api/recipes/${rid}/revisions?limit=20`)
  const list = res.body?.revisions ?? []
  if (res.status !== 200 || list.length === 0) { section.append(h('p', {}, 'None yet: each save keeps the version before it.')); return section }
  section.append(h('ul', { class: 'plain' }, list.map(revision => {
    const restore = h('button', { type: 'button', class: 'quiet' }, 'Restore')
    restore.addEventListener('click', act(async () => {
      const done = await call('POST', `/bff/api/recipes/${rid}/revisions/${id(revision.id)}/restore`)
      if (!check(done)) return
      say('Version restored')
      await navigate(`/recipes/${rid}`)
    }))
    return h('li', {}, `Version ${revision.version} · ${shortDate(revision.createdAt)} `, restore)
  })))
  return section
}
