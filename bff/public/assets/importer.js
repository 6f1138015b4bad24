// Import a recipe from a web page, from a video post, from pasted text or from a photo. Each is read into a preview
// (with progress while the API works) that the person edits in the recipe form; nothing is saved until they save it
// (through from-preview). A video post's preview comes with what the post says: its author, caption and thumbnail.
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
function editPreview (result, { preview, duplicates = [] }, done, { what = 'page', about = null, photoNote } = {}) {
  const form = recipeForm(preview, {
    mode: 'import',
    submitLabel: 'Save recipe',
    photoNote,
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
      ? h('p', { class: 'notice' }, `You already imported this ${what}: `, duplicates.map((d, i) => [i > 0 ? ', ' : '', h('a', { href: `/recipes/${id(d.id)}` }, d.title)]))
      : '',
    about,
    form)
  say(done)
  result.querySelector('#preview-heading').focus()
}

const PLATFORMS = { tiktok: 'TikTok', youtube: 'YouTube', instagram: 'Instagram' }
const CAPTION_EXCERPT = 280

/** At most `max` characters of `text`, cut at a word where there is one. */
function excerpt (text, max) {
  const trimmed = text.trim()
  if (trimmed.length <= max) return trimmed
  const cut = trimmed.slice(0, max)
  const space = cut.lastIndexOf(' ')
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}

const clock = seconds => seconds == null || seconds <= 0 ? null : `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`

/**
 * What the post says, above its preview: platform, author, length, a caption excerpt and its thumbnail. The thumbnail
 * is on the platform's site, which the page's CSP does not show (img-src 'self' data:): the API copies it into the
 * recipe's photo when it is saved.
 */
function videoFacts (post, thumbnail) {
  const facts = [PLATFORMS[post.platform] ?? 'Video', post.author != null ? `by ${post.author}` : null, clock(post.durationSeconds)]
  const link = typeof post.url === 'string' && /^https:\/\//.test(post.url)
    ? h('a', { href: post.url, rel: 'noopener noreferrer', target: '_blank' }, 'Open the video')
    : null
  const caption = excerpt(post.caption ?? '', CAPTION_EXCERPT)
  return h('section', { id: 'video-source', class: 'video-source notice', 'aria-labelledby': 'video-heading' },
    h('h3', { id: 'video-heading' }, 'What the video says'),
    h('p', { id: 'video-facts' }, facts.filter(Boolean).join(' · '), link != null ? ' · ' : null, link),
    caption !== '' ? h('blockquote', { id: 'video-caption' }, caption) : null,
    h('p', { id: 'video-thumbnail', class: 'hint' }, thumbnail
      ? 'Its thumbnail becomes the recipe\'s photo when you save it (shown once saved: it is on the platform\'s site until then).'
      : 'The post has no thumbnail to keep: add a photo below if you like.'))
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

    // A video post (TikTok, YouTube, Instagram): read like a page, shown with what the post says.
    const video = h('input', { id: 'import-video', name: 'video', type: 'url', required: true, maxlength: '2000', placeholder: 'https://www.tiktok.com/@…/video/…' })
    const videoForm = h('form', { id: 'import-video-form' }, field('Link to a video', video, 'TikTok, YouTube or Instagram.'), h('button', { type: 'submit' }, 'Read the video'))
    videoForm.addEventListener('submit', act(async () => {
      const answer = await read(result, 'Reading the video… this can take a few seconds', '/bff/api/tiktok/preview', { url: video.value })
      if (answer == null) return
      const thumbnail = answer.preview.imageUrl != null
      editPreview(result, answer, 'Video read: check the recipe and save it', {
        what: 'video',
        about: videoFacts(answer.video, thumbnail),
        photoNote: thumbnail ? 'The video\'s thumbnail is saved as the recipe\'s photo.' : undefined
      })
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
