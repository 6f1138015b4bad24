// Import a recipe from a web page, from a video post, from pasted text or from a photo. A page, a text or a photo is
// read into a preview (with progress while the API works) that the person edits in the recipe form; nothing is saved
// until they save it (through from-preview). A video post shows what it says, then is saved as a draft to edit.
import { call, check, act, say, heading, navigate } from '../app.js'
import { h, field, dataUrl } from './dom.js'
import { recipeForm } from './editor.js'

const id = encodeURIComponent
// The API takes images of up to 8 MB of base64 text: about 6 MB of file.
const MAX_PHOTO_BYTES = 6 * 1024 * 1024

/** A visible, announced "working" indicator: an indeterminate progress bar and a sentence. */
function progress (text) {
  return h('div', { class: 'progress', role: 'status' }, h('progress', { 'aria-label': text }), h('span', {}, text))
}

/** Asks the API to read something, showing progress meanwhile; its answer's body, or null (the error said). */
async function read (result, working, path, body) {
  result.replaceChildren(progress(working))
  result.setAttribute('aria-busy', 'true')
  let res
  try {
    res = await call('POST', path, body)
  } finally {
    result.removeAttribute('aria-busy')
  }
  if (check(res, 200)) return res.body
  result.replaceChildren()
  return null
}

/** A preview in the recipe form; saved (and only then) through from-preview when the person saves it. */
function editPreview (result, { preview, duplicates = [] }, done) {
  const form = recipeForm(preview, {
    mode: 'import',
    submitLabel: 'Save recipe',
    submit: async values => {
      const { published, ...fields } = values
      const saved = await call('POST', '/bff/api/recipe-import/from-preview', { preview: { ...preview, ...fields }, saveAsDraft: !published })
      if (!check(saved, [200, 201])) return
      await navigate(`/recipes/${id(saved.body.recipe.id)}`)
      say('Recipe imported')
    }
  })
  result.replaceChildren(
    h('h2', { id: 'preview-heading', tabindex: '-1' }, 'Check and edit before saving'),
    duplicates.length > 0
      ? h('p', { class: 'notice' }, 'You already imported this page: ', duplicates.map((d, i) => [i > 0 ? ', ' : '', h('a', { href: `/recipes/${id(d.id)}` }, d.title)]))
      : '',
    form)
  say(done)
  result.querySelector('#preview-heading').focus()
}

export const show = {
  async render ({ screen, query }) {
    const result = h('div', { id: 'import-result' })

    const url = h('input', { id: 'import-url', name: 'url', type: 'url', required: true, maxlength: '2000', placeholder: 'https://…', value: query.get('url') ?? '' })
    const urlForm = h('form', { id: 'import-url-form' }, field('Address of a recipe page', url), h('button', { type: 'submit' }, 'Read the page'))
    urlForm.addEventListener('submit', act(async () => {
      const answer = await read(result, 'Reading the page… this can take a few seconds', '/bff/api/recipe-import/preview', { url: url.value })
      if (answer != null) editPreview(result, answer, 'Page read: check the recipe and save it')
    }))

    // A video post (TikTok, YouTube, Instagram): what the API read from it first, then saved as a draft (the API copies
    // the thumbnail from the platform) that opens in the editor.
    const video = h('input', { id: 'import-video', name: 'video', type: 'url', required: true, maxlength: '2000', placeholder: 'https://www.tiktok.com/@…/video/…' })
    const videoForm = h('form', { id: 'import-video-form' }, field('Link to a video', video, 'TikTok, YouTube or Instagram.'), h('button', { type: 'submit' }, 'Read the video'))
    videoForm.addEventListener('submit', act(async () => {
      const answer = await read(result, 'Reading the video… this can take a few seconds', '/bff/api/tiktok/preview', { url: video.value })
      if (answer == null) return
      const { preview, video: post } = answer
      const duplicates = answer.duplicates ?? []
      const save = h('button', { type: 'button', id: 'save-video-draft' }, 'Save as a draft and edit')
      save.addEventListener('click', act(async () => {
        const saved = await call('POST', '/bff/api/tiktok/import', { url: video.value, saveAsDraft: true })
        if (!check(saved, [200, 201])) return
        await navigate(`/recipes/${id(saved.body.recipe.id)}/edit?imported=1`)
        say('Video read into a draft: check it and save')
      }))
      result.replaceChildren(
        h('h2', { id: 'preview-heading', tabindex: '-1' }, 'What the video says'),
        duplicates.length > 0
          ? h('p', { class: 'notice' }, 'You already imported this video: ', duplicates.map((d, i) => [i > 0 ? ', ' : '', h('a', { href: `/recipes/${id(d.id)}` }, d.title)]))
          : '',
        h('p', { id: 'video-source' }, `${preview.title} (by ${post.author ?? 'an unknown author'})`),
        h('h3', {}, 'Ingredients'),
        h('ul', { id: 'video-ingredients' }, preview.ingredients.map(ingredient => h('li', {}, ingredient.text))),
        h('h3', {}, 'Steps'),
        h('ol', { id: 'video-steps' }, preview.instructions.map(step => h('li', {}, step.text))),
        save)
      say('Video read: check what was found and save it')
      result.querySelector('#preview-heading').focus()
    }))

    const text = h('textarea', { id: 'import-text', name: 'text', required: true, rows: '10', maxlength: '50000', placeholder: 'Title\n\nIngredients\n2 eggs\n…\n\nMethod\n1. …' })
    const textForm = h('form', { id: 'import-text-form' }, field('Recipe text', text, 'A title, the ingredients and the steps, as written anywhere.'), h('button', { type: 'submit' }, 'Read the text'))
    textForm.addEventListener('submit', act(async () => {
      const answer = await read(result, 'Reading the text…', '/bff/api/recipe-import/text-preview', { text: text.value })
      if (answer != null) editPreview(result, answer, 'Text read: check the recipe and save it')
    }))

    // A photo of a recipe (a card, a cookbook page): read by the API's OCR into a preview, like pasted text.
    const photo = h('input', { id: 'import-photo', name: 'photo', type: 'file', required: true, accept: 'image/jpeg,image/png,image/webp,image/gif' })
    const photoPreview = h('div', { class: 'photo-preview' })
    photo.addEventListener('change', () => {
      const chosen = photo.files?.[0]
      if (chosen != null) dataUrl(chosen).then(src => photoPreview.replaceChildren(h('img', { src, alt: 'The photo to read' }))).catch(() => {})
    })
    const photoForm = h('form', { id: 'import-photo-form' }, field('Photo of a recipe', photo, 'JPEG, PNG, WebP or GIF, up to 6 MB.'), photoPreview,
      h('button', { type: 'submit' }, 'Read the photo'))
    photoForm.addEventListener('submit', act(async () => {
      const chosen = photo.files?.[0]
      if (chosen == null) return
      if (chosen.size > MAX_PHOTO_BYTES) return say('That photo is too large (6 MB at most)', 'error')
      const image = await dataUrl(chosen)
      const answer = await read(result, 'Reading the photo… this can take a little while', '/bff/api/recipe-import/image-preview', { image, mimeType: chosen.type || undefined })
      if (answer != null) editPreview(result, answer, 'Photo read: check the recipe and save it')
    }))

    screen.append(h('section', { class: 'card' }, heading('Import a recipe'),
      h('div', { class: 'two' },
        h('section', { 'aria-labelledby': 'from-url' }, h('h2', { id: 'from-url' }, 'From a web page'), urlForm),
        h('section', { 'aria-labelledby': 'from-video' }, h('h2', { id: 'from-video' }, 'From a video'), videoForm),
        h('section', { 'aria-labelledby': 'from-text' }, h('h2', { id: 'from-text' }, 'From text'), textForm),
        h('section', { 'aria-labelledby': 'from-photo' }, h('h2', { id: 'from-photo' }, 'From a photo'), photoForm)),
      result))
  }
}
